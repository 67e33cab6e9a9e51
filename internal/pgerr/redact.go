package pgerr

import "strings"

// Redact returns s, an error message or panic value bound for a log, with
// every quoted span ('...', "...", $tag$...$tag$) and every number replaced
// by a placeholder. An error can quote or print any value of the statement
// it came from (strconv's `parsing "..."`, a panic's value), and the log is
// no place for a statement's constants: a password, a customer's data. The
// client still gets the whole message. Words with digits in them ("utf8",
// "XX000", "int4") are kept, as they name things rather than hold values.
func Redact(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\'' || c == '"':
			j := i + 1
			for j < len(s) {
				if s[j] == c {
					if j+1 < len(s) && s[j+1] == c { // doubled quote
						j += 2
						continue
					}
					break
				}
				j++
			}
			b.WriteByte(c)
			b.WriteString("…")
			b.WriteByte(c) // an unterminated span ends the message
			i = j + 1
		case c == '$' && dollarTagEnd(s, i) > 0:
			tag := s[i:dollarTagEnd(s, i)]
			end := strings.Index(s[i+len(tag):], tag)
			b.WriteString("$…$")
			if end < 0 {
				return b.String()
			}
			i += 2*len(tag) + end
		case isDigit(c) && (i == 0 || !isWordByte(s[i-1]) && s[i-1] != '$'): // $n is a parameter, not a value
			j := i
			for j < len(s) && (isDigit(s[j]) || s[j] == '.' && j+1 < len(s) && isDigit(s[j+1])) {
				j++
			}
			if j < len(s) && isWordByte(s[j]) {
				// Part of a word ("4kB", "1st"): copy the word.
				for j < len(s) && isWordByte(s[j]) {
					j++
				}
				b.WriteString(s[i:j])
			} else {
				b.WriteByte('N')
			}
			i = j
		default:
			if isWordByte(c) {
				// Copy a whole word, so its digits stay with it.
				j := i
				for j < len(s) && isWordByte(s[j]) {
					j++
				}
				b.WriteString(s[i:j])
				i = j
				continue
			}
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// dollarTagEnd returns the end of the $tag$ opening a dollar quote at i,
// or 0 when s[i:] does not start one.
func dollarTagEnd(s string, i int) int {
	j := i + 1
	for j < len(s) && (s[j] == '_' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || j > i+1 && isDigit(s[j])) {
		j++
	}
	if j < len(s) && s[j] == '$' {
		return j + 1
	}
	return 0
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) || c >= 0x80
}
