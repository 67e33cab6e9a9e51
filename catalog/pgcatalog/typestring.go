package pgcatalog

import (
	"strconv"
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltok"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// typeString is a type name as PostgreSQL's parseTypeString reads
// regtype's input: through the SQL lexer and the grammar's Typename
// production, so 'a b'::regtype is a 42601 syntax error, not a type that
// does not exist, and 'double  precision' and 'int4 ARRAY[3]' are the
// types they spell.
type typeString struct {
	// names are the name's parts, as written (unquoted words folded to
	// lower case); a type the grammar spells with key words (integer,
	// double precision, character varying) is pg_catalog's typname.
	names  []string
	system bool // spelled with key words: pg_catalog's, whatever the search path
	array  bool // array bounds or ARRAY
	setof  bool
	mods   int  // type modifiers given to a type named by its name (varchar2(3))
	simple bool // every modifier a constant or a bare identifier
}

// typeNameParser reads one type name from tokens.
type typeNameParser struct {
	src  string
	toks []sqltok.Token
	i    int
	t    typeString
}

// keywordCategory is pg_get_keywords()'s catcode of an unquoted word, 0
// for a word that is no key word.
var keywordCategory = func() map[string]byte {
	m := make(map[string]byte, len(keywords))
	for _, k := range keywords {
		m[k.word] = k.catcode
	}
	return m
}()

// parseTypeString parses s as parseTypeString does, with its errors: the
// lexer's and the grammar's 42601 (with the CONTEXT "invalid type name"),
// and "invalid type name" itself for an empty name or a SETOF.
func parseTypeString(s string) (typeString, error) {
	toks, err := lex(s)
	if err != nil {
		if pe, ok := err.(*pgerr.Error); ok {
			// The position is in the type name, not in the statement.
			return typeString{}, pgerr.New(pe.Code, "%s", pe.Message).WithWhere("invalid type name \"%s\"", s)
		}
		return typeString{}, err
	}
	if len(toks) == 0 {
		return typeString{}, pgerr.New(pgerr.SyntaxError, "invalid type name \"%s\"", s)
	}
	p := &typeNameParser{src: s, toks: toks, t: typeString{simple: true}}
	if p.word(0) == "setof" {
		p.t.setof = true
		p.i++
	}
	if err := p.simpleTypename(); err != nil {
		return typeString{}, err
	}
	if err := p.arrayBounds(); err != nil {
		return typeString{}, err
	}
	if p.i < len(p.toks) {
		return typeString{}, p.syntaxError()
	}
	if p.t.setof {
		return typeString{}, pgerr.New(pgerr.SyntaxError, "invalid type name \"%s\"", s)
	}
	return p.t, nil
}

// word is token k's value when it is an unquoted word, else "".
func (p *typeNameParser) word(k int) string {
	if k < len(p.toks) && p.toks[k].Kind == sqltok.Ident {
		return p.toks[k].Value
	}
	return ""
}

// punct reports whether token k is the punctuation c.
func (p *typeNameParser) punct(k int, c string) bool {
	return k < len(p.toks) && p.toks[k].Kind == sqltok.Punct && p.toks[k].Value == c
}

// syntaxError is the grammar's error at the current token.
func (p *typeNameParser) syntaxError() error {
	var err *pgerr.Error
	if p.i >= len(p.toks) {
		err = pgerr.New(pgerr.SyntaxError, "syntax error at end of input")
	} else {
		t := p.toks[p.i]
		err = pgerr.New(pgerr.SyntaxError, "syntax error at or near \"%s\"", p.src[t.Start:t.End])
	}
	return err.WithWhere("invalid type name \"%s\"", p.src)
}

// expectWord consumes one of the words ws.
func (p *typeNameParser) expectWord(ws ...string) (string, error) {
	w := p.word(p.i)
	for _, x := range ws {
		if w == x {
			p.i++
			return w, nil
		}
	}
	return "", p.syntaxError()
}

// expectPunct consumes the punctuation c.
func (p *typeNameParser) expectPunct(c string) error {
	if !p.punct(p.i, c) {
		return p.syntaxError()
	}
	p.i++
	return nil
}

// iconst consumes an integer constant (the grammar's Iconst: digits that
// fit int4; a larger number is a float constant).
func (p *typeNameParser) iconst() (int64, error) {
	if p.i >= len(p.toks) || p.toks[p.i].Kind != sqltok.Number {
		return 0, p.syntaxError()
	}
	n, err := strconv.ParseInt(p.toks[p.i].Value, 10, 32)
	if err != nil {
		return 0, p.syntaxError()
	}
	p.i++
	return n, nil
}

// parenIconst consumes an optional '(' Iconst ')'.
func (p *typeNameParser) parenIconst() (int64, bool, error) {
	if !p.punct(p.i, "(") {
		return 0, false, nil
	}
	p.i++
	n, err := p.iconst()
	if err != nil {
		return 0, false, err
	}
	return n, true, p.expectPunct(")")
}

// system names pg_catalog's type typname.
func (p *typeNameParser) system(typname string) {
	p.t.names, p.t.system = []string{"pg_catalog", typname}, true
}

// simpleTypename is the grammar's SimpleTypename: the types spelled with
// key words, or a possibly qualified name with optional modifiers.
func (p *typeNameParser) simpleTypename() error {
	w := p.word(p.i)
	switch w {
	case "int", "integer", "smallint", "bigint", "real", "boolean":
		p.i++
		p.system(map[string]string{"int": "int4", "integer": "int4", "smallint": "int2", "bigint": "int8", "real": "float4", "boolean": "bool"}[w])
		return nil
	case "float":
		p.i++
		n, ok, err := p.parenIconst()
		switch {
		case err != nil:
			return err
		case !ok || n > 24:
			if n > 53 {
				return pgerr.New(pgerr.InvalidParameterValue, "precision for type float must be less than 54 bits").WithWhere("invalid type name \"%s\"", p.src)
			}
			p.system("float8")
		case n < 1:
			return pgerr.New(pgerr.InvalidParameterValue, "precision for type float must be at least 1 bit").WithWhere("invalid type name \"%s\"", p.src)
		default:
			p.system("float4")
		}
		return nil
	case "double":
		if p.word(p.i+1) != "precision" {
			break // double alone is a name like any other
		}
		p.i += 2
		p.system("float8")
		return nil
	case "decimal", "dec", "numeric":
		p.i++
		p.system("numeric")
		return p.modifiers()
	case "bit":
		p.i++
		p.system("bit")
		if p.word(p.i) == "varying" {
			p.i++
			p.system("varbit")
		}
		return p.modifiers()
	case "national", "character", "char", "varchar", "nchar":
		p.i++
		if w == "national" {
			if _, err := p.expectWord("character", "char"); err != nil {
				return err
			}
		}
		p.system("bpchar")
		if w == "varchar" {
			p.system("varchar")
		} else if p.word(p.i) == "varying" {
			p.i++
			p.system("varchar")
		}
		_, _, err := p.parenIconst()
		return err
	case "timestamp", "time":
		p.i++
		if _, _, err := p.parenIconst(); err != nil {
			return err
		}
		zone := false
		switch {
		case p.word(p.i) == "with" && p.word(p.i+1) == "time":
			zone = true
			fallthrough
		case p.word(p.i) == "without":
			p.i += 1
			if _, err := p.expectWord("time"); err != nil {
				return err
			}
			if _, err := p.expectWord("zone"); err != nil {
				return err
			}
		}
		if zone {
			w += "tz"
		}
		p.system(w)
		return nil
	case "interval":
		p.i++
		p.system("interval")
		if p.punct(p.i, "(") {
			_, _, err := p.parenIconst()
			return err
		}
		return p.intervalFields()
	}
	return p.genericType()
}

// intervalFields is the grammar's opt_interval: YEAR, YEAR TO MONTH, DAY
// TO SECOND(p) and the rest.
func (p *typeNameParser) intervalFields() error {
	second := func() error {
		if _, err := p.expectWord("second"); err != nil {
			return err
		}
		_, _, err := p.parenIconst()
		return err
	}
	var to []string
	switch p.word(p.i) {
	case "year":
		to = []string{"month"}
	case "day":
		to = []string{"hour", "minute", "second"}
	case "hour":
		to = []string{"minute", "second"}
	case "minute":
		to = []string{"second"}
	case "month":
		p.i++
		return nil
	case "second":
		return second()
	default:
		return nil
	}
	p.i++
	if p.word(p.i) != "to" {
		return nil
	}
	p.i++
	if p.word(p.i) == "second" {
		if to[len(to)-1] != "second" {
			return p.syntaxError()
		}
		return second()
	}
	_, err := p.expectWord(to...)
	return err
}

// genericType is the grammar's GenericType: a name (not a column-name or
// reserved key word), then attributes after dots (any word), then
// optional modifiers.
func (p *typeNameParser) genericType() error {
	if p.i >= len(p.toks) {
		return p.syntaxError()
	}
	t := p.toks[p.i]
	switch {
	case t.Kind == sqltok.QuotedIdent:
	case t.Kind == sqltok.Ident && keywordCategory[t.Value] != 'C' && keywordCategory[t.Value] != 'R':
	default:
		return p.syntaxError()
	}
	p.t.names = []string{t.Value}
	p.i++
	for p.punct(p.i, ".") {
		p.i++
		if p.i >= len(p.toks) || p.toks[p.i].Kind != sqltok.Ident && p.toks[p.i].Kind != sqltok.QuotedIdent {
			return p.syntaxError()
		}
		p.t.names = append(p.t.names, p.toks[p.i].Value)
		p.i++
	}
	return p.modifiers()
}

// modifiers is the grammar's opt_type_modifiers, '(' expr_list ')': the
// grammar takes any expressions, typenameTypeMod then only constants and
// bare identifiers. Each expression here is read as a balanced run of
// tokens.
func (p *typeNameParser) modifiers() error {
	if !p.punct(p.i, "(") {
		return nil
	}
	p.i++
	for {
		start, depth := p.i, 0
		for p.i < len(p.toks) {
			if depth == 0 && (p.punct(p.i, ",") || p.punct(p.i, ")")) {
				break
			}
			switch {
			case p.punct(p.i, "(") || p.punct(p.i, "["):
				depth++
			case p.punct(p.i, ")") || p.punct(p.i, "]"):
				depth--
			}
			p.i++
		}
		if p.i >= len(p.toks) || p.i == start {
			return p.syntaxError()
		}
		p.t.mods++
		if k := p.toks[start].Kind; p.i-start != 1 || k != sqltok.Number && k != sqltok.String && k != sqltok.Ident && k != sqltok.QuotedIdent {
			p.t.simple = false
		}
		if p.punct(p.i, ")") {
			p.i++
			return nil
		}
		p.i++ // ","
	}
}

// arrayBounds is the grammar's opt_array_bounds ([] and [n], repeated) or
// ARRAY and ARRAY[n].
func (p *typeNameParser) arrayBounds() error {
	if p.word(p.i) == "array" {
		p.i++
		p.t.array = true
		if p.punct(p.i, "[") {
			p.i++
			if _, err := p.iconst(); err != nil {
				return err
			}
			return p.expectPunct("]")
		}
		return nil
	}
	for p.punct(p.i, "[") {
		p.i++
		p.t.array = true
		if !p.punct(p.i, "]") {
			if _, err := p.iconst(); err != nil {
				return err
			}
		}
		if err := p.expectPunct("]"); err != nil {
			return err
		}
	}
	return nil
}

// String is PostgreSQL's TypeNameToString: the parts joined by dots, as
// written and unquoted, "[]" for an array.
func (t typeString) String() string {
	s := strings.Join(t.names, ".")
	if t.system {
		s = t.names[1]
	}
	if t.array {
		s += "[]"
	}
	return s
}

// typmodTypes are the types with a typmodin in pg_type: the only ones a
// modifier may follow (their arrays too).
var typmodTypes = map[uint32]bool{
	1560: true, 1562: true, 1042: true, 1043: true, 1700: true, // bit, varbit, bpchar, varchar, numeric
	1083: true, 1266: true, 1114: true, 1184: true, 1186: true, // time, timetz, timestamp, timestamptz, interval
}

// regtypeOID is regtypein: parseTypeString, then the type the name finds
// (LookupTypeName), then its modifiers' check (typenameTypeMod).
func (e *Env) regtypeOID(name string) (uint32, error) {
	ts, err := parseTypeString(name)
	if err != nil {
		return 0, err
	}
	var oid uint32
	if ts.system {
		lookup := ts.names[1]
		if ts.array {
			lookup += "[]"
		}
		if oid, err = e.typeOID(lookup); err != nil {
			return 0, err
		}
	} else {
		parts := ts.names
		switch len(parts) {
		case 1, 2:
		case 3:
			if parts[0] != e.database() {
				return 0, pgerr.New(pgerr.FeatureNotSupported, "cross-database references are not implemented: %s", strings.Join(parts, "."))
			}
			parts = parts[1:]
		default:
			return 0, pgerr.New(pgerr.SyntaxError, "improper qualified name (too many dotted names): %s", strings.Join(parts, "."))
		}
		var ok bool
		if oid, ok, err = e.namedTypeOID(parts, ts.array); err != nil {
			return 0, err
		} else if !ok {
			return 0, pgerr.New(pgerr.UndefinedObject, "type \"%s\" does not exist", ts)
		}
	}
	if ts.mods > 0 {
		elem := oid
		if ts.array {
			if st, ok := sqltypes.TypeByOID(oid); ok && st.ID == sqltypes.Array {
				elem = st.ElemType().OID()
			}
		}
		st, _ := sqltypes.TypeByOID(elem)
		if !typmodTypes[elem] && st.ID != sqltypes.Geometry && st.ID != sqltypes.Geography {
			return 0, pgerr.New(pgerr.SyntaxError, "type modifier is not allowed for type \"%s\"", ts)
		}
		if !ts.simple {
			return 0, pgerr.New(pgerr.SyntaxError, "type modifiers must be simple constants or identifiers")
		}
	}
	return oid, nil
}

// namedTypeOID finds the type a name (one part, or schema and name) names
// exactly, as LookupTypeName looks pg_type's typname up: in the schema
// given, which must exist, else along the search path (pg_catalog, then
// public and the user schemas); ok false when there is none. array is the
// name's array type.
func (e *Env) namedTypeOID(parts []string, array bool) (oid uint32, ok bool, err error) {
	quoted := make([]string, len(parts))
	for i, n := range parts {
		quoted[i] = sqltypes.QuoteIdent(n)
	}
	q := strings.Join(quoted, ".")
	if array {
		q += "[]"
	}
	if oid, ok := e.schemaTypeOID(q); ok {
		return oid, true, nil
	}
	name := parts[len(parts)-1]
	isTemp := func(ns uint32) bool { _, _, ok := tempNamespaceNum(ns); return ok }
	// The session's temporary types come first for an unqualified name.
	inSchema := func(ns uint32) bool { return ns == NamespaceCatalog || ns == NamespacePublic || isTemp(ns) }
	if len(parts) == 2 && parts[0] == "pg_temp" {
		inSchema = isTemp
	} else if len(parts) == 2 {
		var want uint32
		if e.Snap != nil && e.Snap.HasSchema(parts[0]) {
			want = schemaOID(e.Snap, parts[0])
		} else if want, err = namespaceOID(sqltypes.QuoteIdent(parts[0])); err != nil {
			return 0, false, err
		}
		inSchema = func(ns uint32) bool { return ns == want }
	}
	pick := func(t *pgType) (uint32, bool, error) {
		if !array {
			return t.oid, true, nil
		}
		return t.array, t.array != 0, nil
	}
	for _, t := range knownTypes() {
		if t.name == name && inSchema(t.ns) {
			return pick(t)
		}
	}
	for _, t := range e.userTypes() {
		if t.name == name && inSchema(t.ns) {
			return pick(t)
		}
	}
	return 0, false, nil
}
