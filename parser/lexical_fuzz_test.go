package parser

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/zproxy/zproxy/internal/pgerr"
)

// The front end must accept PostgreSQL's lexical rules everywhere: a text
// PostgreSQL parses is never a syntax error (42601) here; naming what
// zproxy lacks is 0A000, and errors past the grammar (42P01, 42883) are
// not this test's business. lexicalVariant respells a statement PostgreSQL
// parses without changing its tokens: whitespace and comments in odd
// places, keywords in any case, identifiers plain, quoted or as U&"",
// strings in every literal form, function names followed by blanks.
//
// With PARSER_POSTGRES set to a PostgreSQL 15 connection string, every
// generated text is also prepared on PostgreSQL, so a variant the
// generator gets wrong (one PostgreSQL rejects) fails the test rather than
// passing unchecked:
//
//	PARSER_POSTGRES='host=127.0.0.1 port=5433 user=postgres dbname=postgres' go test ./parser -run 'TestFrontEndLexical|FuzzFrontEndLexical'
//	PARSER_POSTGRES=... go test ./parser -run '^$' -fuzz FuzzFrontEndLexical

// lexicalTemplates are statements PostgreSQL 15 parses, one token per
// word: K:word is a keyword or type name (any case), I:name an identifier
// (plain, "quoted" or U&"escaped"), F:name a function name in a plain call
// (also quotable), S:text a string literal in any of its forms ('~' is a
// blank inside it); any other word is written as it is.
var lexicalTemplates = []string{
	`K:SELECT F:count ( * ) K:FROM I:t`,
	`K:SELECT F:sum ( I:a ) , F:max ( - 76 ) , F:min ( I:a ) K:FROM I:t K:WHERE I:a > 1`,
	`K:SELECT S:abc || S:def K:AS I:x`,
	`K:SELECT F:length ( S:hello ) K:AS I:year , 1 K:AS I:value`,
	`K:SELECT I:a :: K:text , K:CAST ( I:b K:AS K:varchar ( 3 ) ) K:FROM I:t K:ORDER K:BY 1 K:DESC`,
	`K:SELECT K:CASE K:WHEN 1 = 1 K:THEN S:y K:ELSE S:n K:END`,
	`K:SELECT ( K:ARRAY [ 1 , 2 ] ) [ 1 ] , F:array_length ( K:ARRAY [ 1 ] , 1 )`,
	`K:WITH I:c K:AS ( K:SELECT 1 K:AS I:n ) K:SELECT I:n K:FROM I:c`,
	`K:SELECT I:t . I:a K:FROM I:t K:WHERE I:t . I:b K:LIKE S:a% K:LIMIT 2 K:OFFSET 1`,
	`K:VALUES ( 1 , S:a ) , ( 2 , S:b )`,
	`K:SELECT 1 K:UNION K:ALL K:SELECT 2 K:EXCEPT K:SELECT 3`,
	`K:SELECT F:coalesce ( K:NULL , 2 ) , F:nullif ( 1 , 1 ) , K:SUBSTRING ( S:hello K:FROM 2 K:FOR 3 )`,
	`K:SELECT S:a = K:ANY ( K:ARRAY [ S:a ] ) , 2 K:BETWEEN 1 K:AND 3 , K:NOT K:TRUE`,
	`K:SELECT S:a || S:b = K:ANY ( K:ARRAY [ S:ab ] )`,
	`K:SELECT K:EXISTS ( K:SELECT 1 ) , 1 K:IN ( 1 , 2 ) , K:NULL K:IS K:NULL`,
	`K:SELECT F:now ( ) - K:INTERVAL S:1~day , K:DATE S:2020-01-01 , K:TIMESTAMP S:2020-01-01~10:00`,
	`K:SELECT I:a , F:count ( * ) K:FROM I:t K:GROUP K:BY I:a K:HAVING F:count ( * ) > 1`,
	`K:INSERT K:INTO I:t ( I:a , I:b ) K:VALUES ( 1 , S:x ) K:RETURNING I:a`,
	`K:UPDATE I:t K:SET I:b = S:z K:WHERE I:a = 1`,
	`K:DELETE K:FROM I:t K:WHERE I:a < 0 K:AND I:b <> S:q`,
	`K:SELECT 2 ^ 3 , 7 % 3 , 1 <> 2 , 1 != 2 , 3 >= 2 , 1 <= 1 , |/ 16.0 , @ - 2`,
	`K:SELECT F:row_number ( ) K:OVER ( K:ORDER K:BY I:a ) K:FROM I:t`,
	`K:SELECT $1 :: K:int + 1`,
	`K:SELECT I:x . I:y K:FROM ( K:SELECT 1 K:AS I:y ) K:AS I:x`,
	`K:SELECT F:upper ( S:abc ) I:label , F:lower ( S:ABC ) K:AS I:"Mixed~Case"`,
	`K:SELECT 1.5e3 , .5 , 5. , 0.000 , 42`,
	`K:SELECT F:abs ( - 1 ) , F:round ( 2.5 , 0 ) , F:power ( 2 , 10 )`,
	`K:SELECT F:string_agg ( I:b , S:, K:ORDER K:BY I:b ) K:FROM I:t`,
	`K:SELECT F:count ( K:DISTINCT I:a ) K:FILTER ( K:WHERE I:a > 0 ) K:FROM I:t`,
	`K:SELECT S:2020-01-01 :: K:date + 1`,
	`K:SELECT K:CURRENT_DATE , K:CURRENT_USER , K:LOCALTIMESTAMP`,
	`K:SELECT * K:FROM I:t K:WHERE I:a K:IS K:NOT K:DISTINCT K:FROM 1 K:ORDER K:BY I:a K:NULLS K:FIRST`,
	`K:SELECT K:TRIM ( K:BOTH S:x K:FROM S:xax ) , K:POSITION ( S:a K:IN S:cat )`,
	`K:SELECT I:a K:FROM I:t K:JOIN I:t K:AS I:u K:USING ( I:a ) K:WHERE I:u . I:b K:ILIKE S:A%`,
	`K:SELECT F:json_build_object ( S:k , 1 ) -> S:k , S:{"a":1} :: K:jsonb ->> S:a`,
}

// lexicalBytes draws the generator's choices from fuzz input: each call
// takes the next byte modulo n (0 once the input is used up).
type lexicalBytes struct {
	b []byte
	i int
}

func (c *lexicalBytes) choose(n int) int {
	if c.i >= len(c.b) || n <= 1 {
		c.i++
		return 0
	}
	v := int(c.b[c.i]) % n
	c.i++
	return v
}

// lexicalVariant respells the template the first choice picks.
func lexicalVariant(data []byte) string {
	c := &lexicalBytes{b: data}
	tmpl := lexicalTemplates[c.choose(len(lexicalTemplates))]
	var sb strings.Builder
	if c.choose(3) == 0 {
		sb.WriteString(separator(c, false))
	}
	words := strings.Fields(tmpl)
	for i, w := range words {
		if i > 0 {
			sb.WriteString(separator(c, bareCommentAfter(words[i-1])))
		}
		kind, text, _ := strings.Cut(w, ":")
		if len(kind) != 1 || text == "" {
			sb.WriteString(w)
			continue
		}
		switch kind {
		case "K":
			sb.WriteString(keywordCase(c, text))
		case "I", "F":
			sb.WriteString(identifierForm(c, strings.ReplaceAll(text, "~", " ")))
		case "S":
			sb.WriteString(stringForm(c, strings.ReplaceAll(text, "~", " ")))
		default:
			sb.WriteString(w)
		}
	}
	switch c.choose(4) {
	case 1:
		sb.WriteString(";")
	case 2:
		sb.WriteString(separator(c, false) + ";" + separator(c, false))
	}
	return sb.String()
}

// bareCommentAfter: a comment may follow the word with no blank between
// unless the word ends in an operator character, where "/*" or "--"
// would join the operator ("-/**/" is still "-", but keep clear of it).
func bareCommentAfter(w string) bool {
	r := []rune(w)
	last := r[len(r)-1]
	return unicode.IsLetter(last) || unicode.IsDigit(last) || strings.ContainsRune(`)]"'$,`, last)
}

// separator is what may stand between two tokens: blanks, newlines,
// comments (nested ones too) and line comments.
func separator(c *lexicalBytes, bare bool) string {
	forms := []string{" ", "  ", "\t", "\n", "\r\n", " \f ", " /**/ ", " /* c */\n", " /* a /* nested */ b */ ", " -- note\n", "\n--\n", " /* -- */ "}
	if bare {
		forms = append(forms, "/**/", "/* x */", "-- x\n")
	}
	return forms[c.choose(len(forms))]
}

// keywordCase writes a keyword in upper, lower or mixed case.
func keywordCase(c *lexicalBytes, w string) string {
	switch c.choose(3) {
	case 0:
		return strings.ToUpper(w)
	case 1:
		return strings.ToLower(w)
	}
	r := []rune(strings.ToLower(w))
	for i := range r {
		if i%2 == 0 {
			r[i] = unicode.ToUpper(r[i])
		}
	}
	return string(r)
}

// identifierForm writes an identifier plain, in upper case (folded to
// lower), quoted or as a Unicode-escaped U&"" identifier. A name given in
// quotes in the template keeps them.
func identifierForm(c *lexicalBytes, name string) string {
	if strings.HasPrefix(name, `"`) {
		return name
	}
	switch c.choose(5) {
	case 1:
		return strings.ToUpper(name)
	case 2:
		return `"` + name + `"`
	case 3:
		return `U&"` + unicodeEscapes(name, '\\', c) + `"`
	case 4:
		return `U&"` + unicodeEscapes(name, '!', c) + `" UESCAPE '!'`
	}
	return name
}

// unicodeEscapes writes some characters of s as \XXXX or \+XXXXXX with
// the escape character esc.
func unicodeEscapes(s string, esc rune, c *lexicalBytes) string {
	var sb strings.Builder
	for _, r := range s {
		switch c.choose(3) {
		case 1:
			fmt.Fprintf(&sb, "%c%04X", esc, r)
		case 2:
			fmt.Fprintf(&sb, "%c+%06x", esc, r)
		default:
			if r == esc || r == '\'' || r == '"' {
				sb.WriteRune(esc)
				if r == esc {
					sb.WriteRune(esc)
					continue
				}
				fmt.Fprintf(&sb, "%04X", r)
				continue
			}
			sb.WriteRune(r)
		}
	}
	return sb.String()
}

// stringForm writes s as a standard, escape, Unicode-escape, dollar-quoted
// or continued ('a' newline 'b') string literal.
func stringForm(c *lexicalBytes, s string) string {
	quoted := strings.ReplaceAll(s, "'", "''")
	switch c.choose(7) {
	case 1:
		return "E'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
	case 2:
		return "U&'" + unicodeEscapes(s, '\\', c) + "'"
	case 3:
		return "$$" + s + "$$"
	case 4:
		return "$q_1$" + s + "$q_1$"
	case 5:
		if len(quoted) > 1 {
			sep := []string{"\n", " \n ", "\n-- between\n", "\r\n\t"}[c.choose(4)]
			return "'" + quoted[:1] + "'" + sep + "'" + quoted[1:] + "'"
		}
	case 6:
		return "U&'" + unicodeEscapes(s, '!', c) + "' UESCAPE '!'"
	}
	return "'" + quoted + "'"
}

// lexicalOracle prepares texts on the PostgreSQL of PARSER_POSTGRES (nil
// without it).
type lexicalOracle struct{ conn *pgx.Conn }

func newLexicalOracle(t testing.TB) *lexicalOracle {
	dsn := os.Getenv("PARSER_POSTGRES")
	if dsn == "" {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatalf("PARSER_POSTGRES: %v", err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return &lexicalOracle{conn: conn}
}

// syntaxError reports whether PostgreSQL's grammar refuses q (42601 from
// PREPARE, which parses and analyses without running it).
func (o *lexicalOracle) syntaxError(t testing.TB, q string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	body := strings.TrimRight(strings.TrimSpace(q), "; \t\r\n\f")
	_, err := o.conn.Exec(ctx, "PREPARE zq_lexical AS "+body, pgx.QueryExecModeSimpleProtocol)
	if err == nil {
		if _, err := o.conn.Exec(ctx, "DEALLOCATE zq_lexical", pgx.QueryExecModeSimpleProtocol); err != nil {
			t.Fatalf("DEALLOCATE: %v", err)
		}
		return false
	}
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		t.Fatalf("PostgreSQL: %v", err)
	}
	return pe.Code == "42601"
}

// checkLexical fails when zproxy's front end calls q a syntax error. With
// the oracle, a text PostgreSQL also refuses is the generator's mistake.
func checkLexical(t testing.TB, o *lexicalOracle, q string) {
	_, err := Parse(q)
	if o != nil && o.syntaxError(t, q) {
		t.Fatalf("the generator wrote a text PostgreSQL refuses with 42601: %q", q)
	}
	if pe := pgerr.As(err); pe != nil && pe.Code == pgerr.SyntaxError {
		t.Errorf("PostgreSQL parses %q; zproxy: %v (position %d)", q, err, pe.Position)
	}
}

// lexicalSeeds are inputs of the fuzz target: each template in its plain
// spelling and in a few others.
func lexicalSeeds() [][]byte {
	var out [][]byte
	for i := range lexicalTemplates {
		out = append(out, []byte{byte(i)})
		out = append(out, []byte{byte(i), 1, 3, 5, 7, 11, 13, 2, 4, 6, 8, 10, 12, 14, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	}
	return out
}

// FuzzFrontEndLexical: what PostgreSQL parses, respelled lexically, is no
// syntax error to zproxy.
func FuzzFrontEndLexical(f *testing.F) {
	for _, s := range lexicalSeeds() {
		f.Add(s)
	}
	o := newLexicalOracle(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		checkLexical(t, o, lexicalVariant(data))
	})
}

// TestFrontEndLexical runs a fixed sample of variants of every template
// (the fuzz target's seeds run as FuzzFrontEndLexical's own test).
func TestFrontEndLexical(t *testing.T) {
	o := newLexicalOracle(t)
	rng := rand.New(rand.NewSource(25))
	n := 40
	if testing.Short() {
		n = 8
	}
	for i := range lexicalTemplates {
		for k := 0; k < n; k++ {
			data := make([]byte, 64)
			rng.Read(data)
			data[0] = byte(i)
			checkLexical(t, o, lexicalVariant(data))
		}
	}
}
