# embed.awk — turn the rule files given as arguments into a C source that
# holds their text (rules_builtin_files[], declared in src/log/rules.h;
# with -v name=causes -v header=causes.h, causes_builtin_files[] of
# src/log/causes.h).
# Plain POSIX awk: every byte passes through except '\', '"' and '?'
# (trigraphs), which are escaped one character at a time, because awks
# disagree on backslashes in gsub() replacements.
function cstr(s,    out, i, c) {
	out = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "\\" || c == "\"" || c == "?")
			out = out "\\"
		out = out c
	}
	return out
}

BEGIN {
	if (name == "")
		name = "rules"
	if (header == "")
		header = "rules.h"
	print "/* Generated from the rule files by rules/embed.awk: do not edit. */"
	printf "#include \"%s\"\n", header
	print ""
	printf "const struct rules_file %s_builtin_files[] = {\n", name
	n = 0
}
FNR == 1 {
	if (n++)
		print "\t},"
	printf "\t{ \"%s\",\n", FILENAME
}
{
	printf "\t  \"%s\\n\"\n", cstr($0)
}
END {
	if (n)
		print "\t},"
	print "};"
	print ""
	printf "const size_t %s_builtin_count = %d;\n", name, n
}
