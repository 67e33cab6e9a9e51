package parser

import (
	"strings"
	"unicode/utf8"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// NonStandardStrings rewrites sql as a session with standard_conforming_strings
// off reads it, into the text every other part of zproxy reads (the
// setting on): an ordinary '...' literal (or N'...') in which a backslash
// is an escape, as in E'...', becomes the standard literal of the same
// value. It keeps every other character where it was (the literal is
// padded with spaces after its closing quote to its written length, which
// its value never exceeds), so positions in errors, which the parser and
// the binder count in characters, point where the client wrote them; and
// what is stored of the statement (a view's query, a default) is read the
// same whatever the setting is later.
//
// warn is escape_string_warning: each literal whose text uses a backslash
// gets PostgreSQL's WARNING (22P06) for its first escape. U&'...' is
// refused, as PostgreSQL refuses it with the setting off; E'...', dollar
// quotes, B'...' and X'...' strings, quoted identifiers and comments are
// left alone. A function body in dollar quotes is read as it is written:
// its literals stay standard (README.md, "Settings").
func NonStandardStrings(sql string, warn bool) (string, []*pgerr.Error, error) {
	if strings.IndexByte(sql, '\\') < 0 && !hasUnicodeString(sql) {
		return sql, nil, nil // nothing reads differently
	}
	var out strings.Builder
	var warnings []*pgerr.Error
	copied := 0 // sql[:copied] is in out
	i := 0
	for i < len(sql) {
		c := sql[i]
		switch {
		case c == '-' && i+1 < len(sql) && sql[i+1] == '-':
			i = lineCommentEnd(sql, i)
		case c == '/' && i+1 < len(sql) && sql[i+1] == '*':
			end, ok := blockCommentEnd(sql, i)
			if !ok {
				return sql, nil, nil // the parser reports it
			}
			i = end
		case c == '"':
			t, err := scanQuotedIdent(sql, i)
			if err != nil {
				return sql, nil, nil
			}
			i = t.end
		case c == '$':
			t, err := scanDollar(sql, i)
			if err != nil {
				i++ // a lone $ the parser reports
				continue
			}
			i = t.end
		case (c == 'e' || c == 'E') && i+1 < len(sql) && sql[i+1] == '\'':
			t, err := scanContinuedEString(sql, i)
			if err != nil {
				return "", nil, err
			}
			i = t.end
		case (c == 'b' || c == 'B' || c == 'x' || c == 'X') && i+1 < len(sql) && sql[i+1] == '\'':
			t, err := scanPlainString(sql, i+1)
			if err != nil {
				return sql, nil, nil
			}
			i = t.end
		case (c == 'u' || c == 'U') && i+2 < len(sql) && sql[i+1] == '&' && (sql[i+2] == '\'' || sql[i+2] == '"'):
			if sql[i+2] == '\'' {
				return "", nil, pgerr.New(pgerr.FeatureNotSupported, "unsafe use of string constant with Unicode escapes").
					WithDetail("String constants with Unicode escapes cannot be used when standard_conforming_strings is off.").
					WithPosition(charPos(sql, i))
			}
			t, err := scanUnicode(sql, i)
			if err != nil {
				return sql, nil, nil
			}
			i = t.end
		case (c == 'n' || c == 'N') && i+1 < len(sql) && sql[i+1] == '\'', c == '\'':
			q := i
			if c != '\'' {
				q++
			}
			// The literal and the segments continuing it on later lines
			// are one string: one warning, at its start, for its first
			// escape (PostgreSQL's warn_on_first_escape).
			warned := false
			for {
				end, val, w, err := nonStandardLiteral(sql, i, q)
				if err != nil {
					return "", nil, err
				}
				if w != nil && warn && !warned {
					warnings, warned = append(warnings, w), true
				}
				if w != nil {
					// The segment used a backslash: written again as a
					// standard literal, padded to its length.
					lit := "'" + strings.ReplaceAll(val, "'", "''") + "'"
					out.WriteString(sql[copied:q])
					out.WriteString(lit)
					out.WriteString(strings.Repeat(" ", utf8.RuneCountInString(sql[q:end])-utf8.RuneCountInString(lit)))
					copied = end
				}
				next, ok := continuationAt(sql, end)
				if !ok {
					i = end
					break
				}
				q = next
			}
		case isIdentStart(c) || isDigit(c):
			for i < len(sql) && isIdentCont(sql[i]) {
				i++
			}
		default:
			i++
		}
	}
	if copied == 0 {
		return sql, warnings, nil
	}
	out.WriteString(sql[copied:])
	return out.String(), warnings, nil
}

// hasUnicodeString reports whether sql may hold a U&'...' literal.
func hasUnicodeString(sql string) bool {
	return strings.Contains(sql, "&'")
}

// nonStandardLiteral reads the ordinary literal whose token starts at start
// and whose quote is at quote with backslash escapes: end is past its
// closing quote, val its value, and w, when its text has a backslash,
// the warning PostgreSQL's scanner gives for its first escape.
func nonStandardLiteral(sql string, start, quote int) (end int, val string, w *pgerr.Error, err error) {
	t, err := scanEscaped(sql, start, quote)
	if err != nil {
		return 0, "", nil, err
	}
	body := sql[quote+1 : t.end-1]
	k := strings.IndexByte(body, '\\')
	if k < 0 {
		return t.end, t.val, nil, nil
	}
	w = &pgerr.Error{Code: pgerr.NonstandardUseOfEscapeCharacter, Severity: "WARNING", Position: charPos(sql, start)}
	switch {
	case k+1 < len(body) && body[k+1] == '\'':
		w.Message = `nonstandard use of \' in a string literal`
		w.Hint = `Use '' to write quotes in strings, or use the escape string syntax (E'...').`
	case k+1 < len(body) && body[k+1] == '\\':
		w.Message = `nonstandard use of \\ in a string literal`
		w.Hint = `Use the escape string syntax for backslashes, e.g., E'\\'.`
	default:
		w.Message = "nonstandard use of escape in a string literal"
		w.Hint = `Use the escape string syntax for escapes, e.g., E'\r\n'.`
	}
	return t.end, t.val, w, nil
}
