package parser

import "strings"

// RenameColumnRefs returns expression text sql (a CHECK constraint's) with
// its references to column from naming column to instead, the rest of the
// text as written. A word is a column reference unless a "(" follows it (a
// function), a string constant follows it (a typed literal: date '...'),
// or "::", AS or a non-qualifier "." precedes it (a type, or a field).
func RenameColumnRefs(sql, from, to string) (string, error) {
	toks, err := scan(sql)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	last := 0
	for i, t := range toks {
		if t.kind != tkIdent && t.kind != tkQIdent || t.val != from {
			continue
		}
		if i+1 < len(toks) && (toks[i+1].is("(") || toks[i+1].kind == tkString) {
			continue
		}
		if i > 0 && (toks[i-1].is("::") || toks[i-1].is("as")) {
			continue
		}
		if i > 0 && toks[i-1].is(".") && (i < 2 || toks[i-2].kind != tkIdent && toks[i-2].kind != tkQIdent) {
			continue
		}
		b.WriteString(sql[last:t.start])
		b.WriteString(`"` + strings.ReplaceAll(to, `"`, `""`) + `"`)
		last = t.end
	}
	b.WriteString(sql[last:])
	return b.String(), nil
}
