# wqctl __complete conditions (tab-separated) as the scdoc table and list of
# wqctl.profile(5) CONDITIONS; tests/meta/meta.bats compares the page with it.
BEGIN {
	FS = "\t"
	print "[[ *code*"
	print ":[ *severity*"
	print ":[ *verify says*"
	print ":[ *exit of check, apply, verify*"
}
{
	code[NR] = $1; meaning[NR] = $8; apply[NR] = $4
	print "|  *" $1 "*"
	print ":  " $2
	print ":  " $3
	print ":  " $5 ", " $6 ", " $7
}
END {
	print ""
	for (i = 1; i <= NR; i++) {
		print "*" code[i] "*"
		print "\t" meaning[i] "; apply " apply[i] "."
		print ""
	}
}
