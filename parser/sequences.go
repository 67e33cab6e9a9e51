package parser

import (
	"strconv"
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// SequenceStatement is CREATE, ALTER or DROP SEQUENCE, parsed by zproxy's
// front end: TiDB's sequence grammar is MySQL-flavoured (no AS type, no
// OWNED BY, no RESTART), so the whole statement is read here and the
// statement has no AST.
type SequenceStatement struct {
	// Kind is "create", "alter" or "drop".
	Kind string
	// Names are the sequences (one, except for DROP).
	Names       []string
	IfNotExists bool
	IfExists    bool
	// Cascade is DROP ... CASCADE: column defaults using the sequence go
	// too.
	Cascade bool
	// RenameTo is ALTER SEQUENCE ... RENAME TO, or SET SCHEMA's schema
	// (SetSchema, read as a rename: the binder makes RenameTo the
	// sequence's key in that schema).
	RenameTo  string
	SetSchema bool
	Options   SequenceOptions
	// Pos is the byte offset of the (first) sequence name, for errors.
	Pos int
	// Qualified: the (first) name was written with its schema, so CREATE
	// does not choose one from search_path.
	Qualified bool
	// Temp is CREATE TEMP[ORARY] SEQUENCE (or a name in pg_temp): the
	// session's own sequence.
	Temp bool
}

// SequenceOptions are the options of CREATE/ALTER SEQUENCE and of an
// identity column's parenthesised sequence options. Nil pointers were not
// given.
type SequenceOptions struct {
	// Type is AS smallint | integer | bigint (canonical names).
	Type      string
	Increment *int64
	Min, Max  *int64
	// NoMin and NoMax are NO MINVALUE / NO MAXVALUE: the type's bound.
	NoMin, NoMax bool
	Start        *int64
	// Restart is ALTER's RESTART [WITH n]; RestartStart is RESTART alone
	// (back to the start value).
	Restart      *int64
	RestartStart bool
	Cache        *int64
	Cycle        *bool
	// OwnedBy is "table.column", "none", or "" when not given.
	OwnedBy string
	// Name is SEQUENCE NAME's, which only an identity column's options
	// may give (pg_dump writes it); "" when not given.
	Name string
	// BitReversed asks for a bit-reversed sequence (zproxy's extension,
	// after Spanner's bit_reversed_positive): values spread over the key
	// space instead of always growing.
	BitReversed bool
}

// sequenceStmt parses the sequence statements; nil when the statement is
// not one.
func (r *rewriter) sequenceStmt() (*SequenceStatement, error) {
	first := r.toks[0].val
	if first != "create" && first != "alter" && first != "drop" {
		return nil, nil
	}
	k := 1
	temp := false
	if first == "create" && r.peek(k, "unlogged") && r.peek(k+1, "sequence") {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "UNLOGGED sequences are not supported").WithPosition(r.pos(k))
	}
	if first == "create" && (r.peek(k, "temp") || r.peek(k, "temporary")) && r.peek(k+1, "sequence") {
		temp, k = true, k+1
	}
	if !r.peek(k, "sequence") {
		return nil, nil
	}
	k++
	st := &SequenceStatement{Kind: first, Temp: temp}
	switch {
	case first == "create" && r.peek(k, "if") && r.peek(k+1, "not") && r.peek(k+2, "exists"):
		st.IfNotExists, k = true, k+3
	case first != "create" && r.peek(k, "if") && r.peek(k+1, "exists"):
		st.IfExists, k = true, k+2
	}
	for {
		name, next, err := r.relationName(k)
		if err != nil {
			return nil, err
		}
		if len(st.Names) == 0 {
			st.Pos = r.pos(k)
			st.Qualified = next-k > 1
			if sc, bare, ok := strings.Cut(name, "."); ok && first == "create" && (sc == "pg_temp" || strings.HasPrefix(sc, "pg_temp_")) {
				// CREATE SEQUENCE pg_temp.s: temporary, as TEMP is.
				name, st.Temp, st.Qualified = bare, true, false
			}
		}
		st.Names = append(st.Names, name)
		k = next
		if first != "drop" || !r.peek(k, ",") {
			break
		}
		k++
	}
	switch first {
	case "drop":
		switch {
		case r.peek(k, "cascade"):
			st.Cascade, k = true, k+1
		case r.peek(k, "restrict"):
			k++
		}
		if k < len(r.toks) {
			return nil, r.syntaxErrorAt(k)
		}
		return st, nil
	case "alter":
		if r.peek(k, "rename") && r.peek(k+1, "to") {
			name, next, err := r.relationName(k + 2)
			if err != nil {
				return nil, err
			}
			if next < len(r.toks) {
				return nil, r.syntaxErrorAt(next)
			}
			st.RenameTo = name
			return st, nil
		}
		if r.peek(k, "set") && r.peek(k+1, "schema") {
			name, err := r.name(k + 2)
			if err != nil {
				return nil, err
			}
			if k+3 < len(r.toks) {
				return nil, r.syntaxErrorAt(k + 3)
			}
			st.RenameTo, st.SetSchema = name, true
			return st, nil
		}
	}
	opts, next, err := r.sequenceOptions(k, first == "alter")
	if err != nil {
		return nil, err
	}
	if next < len(r.toks) {
		return nil, r.syntaxErrorAt(next)
	}
	st.Options = opts
	return st, nil
}

// relationName reads a possibly schema-qualified name at k: "name", or
// "schema.name" for any schema, public included, which the binder resolves
// (catalog.Snapshot.lookupRelation: an explicit schema binds exactly that
// schema, a bare name goes through the search path). Routines' and types'
// names are read the same way.
func (r *rewriter) relationName(k int) (string, int, error) {
	if k >= len(r.toks) || r.toks[k].kind != tkIdent && r.toks[k].kind != tkQIdent {
		return "", k, r.syntaxErrorAt(k)
	}
	name := r.toks[k].val
	k++
	if r.peek(k, ".") {
		if k+1 >= len(r.toks) || r.toks[k+1].kind != tkIdent && r.toks[k+1].kind != tkQIdent {
			return "", k + 1, r.syntaxErrorAt(k + 1)
		}
		name += "." + r.toks[k+1].val
		k += 2
	}
	return name, k, nil
}

// sequenceOptions reads sequence options from token k to the end of the
// statement (or to a closing parenthesis at depth 0).
func (r *rewriter) sequenceOptions(k int, alter bool) (SequenceOptions, int, error) {
	var o SequenceOptions
	seen := map[string]bool{}
	once := func(name string, at int) error {
		if seen[name] {
			return pgerr.New(pgerr.SyntaxError, "conflicting or redundant options").WithPosition(r.pos(at))
		}
		seen[name] = true
		return nil
	}
	num := func(at int) (*int64, int, error) {
		neg := false
		if r.peek(at, "-") || r.peek(at, "+") {
			neg = r.toks[at].val == "-"
			at++
		}
		if at >= len(r.toks) || r.toks[at].kind != tkNumber {
			return nil, at, r.syntaxErrorAt(at)
		}
		s := r.toks[at].val
		if neg {
			s = "-" + s
		}
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, at, pgerr.New(pgerr.NumericValueOutOfRange, "value \"%s\" is out of range for type bigint", s).WithPosition(r.pos(at))
		}
		return &v, at + 1, nil
	}
	for k < len(r.toks) && !r.peek(k, ")") {
		start := k
		var err error
		switch {
		case r.peek(k, "sequence") && r.peek(k+1, "name"):
			if err = once("sequence name", k); err != nil {
				return o, k, err
			}
			o.Name, k, err = r.relationName(k + 2)
			if err != nil {
				return o, k, err
			}
		case r.peek(k, "as"):
			if err = once("as", k); err != nil {
				return o, k, err
			}
			typ, next, terr := r.parseType(k + 1)
			if terr != nil {
				return o, k, terr
			}
			switch n := typ.String(); n {
			case "smallint", "integer", "bigint":
				o.Type = n
			default:
				return o, k, pgerr.New(pgerr.InvalidParameterValue, "sequence type must be smallint, integer, or bigint").WithPosition(r.pos(k + 1))
			}
			k = next
		case r.peek(k, "increment"):
			if err = once("increment", k); err != nil {
				return o, k, err
			}
			k++
			if r.peek(k, "by") {
				k++
			}
			o.Increment, k, err = num(k)
		case r.peek(k, "minvalue"):
			if err = once("minvalue", k); err != nil {
				return o, k, err
			}
			o.Min, k, err = num(k + 1)
		case r.peek(k, "maxvalue"):
			if err = once("maxvalue", k); err != nil {
				return o, k, err
			}
			o.Max, k, err = num(k + 1)
		case r.peek(k, "no") && r.peek(k+1, "minvalue"):
			if err = once("minvalue", k); err != nil {
				return o, k, err
			}
			o.NoMin, k = true, k+2
		case r.peek(k, "no") && r.peek(k+1, "maxvalue"):
			if err = once("maxvalue", k); err != nil {
				return o, k, err
			}
			o.NoMax, k = true, k+2
		case r.peek(k, "no") && r.peek(k+1, "cycle"), r.peek(k, "cycle"):
			if err = once("cycle", k); err != nil {
				return o, k, err
			}
			c := r.peek(k, "cycle")
			o.Cycle = &c
			if c {
				k++
			} else {
				k += 2
			}
		case r.peek(k, "start"):
			if err = once("start", k); err != nil {
				return o, k, err
			}
			k++
			if r.peek(k, "with") {
				k++
			}
			o.Start, k, err = num(k)
		case alter && r.peek(k, "restart"):
			if err = once("restart", k); err != nil {
				return o, k, err
			}
			k++
			if r.peek(k, "with") {
				k++
			}
			if k < len(r.toks) && (r.toks[k].kind == tkNumber || r.peek(k, "-") || r.peek(k, "+")) {
				o.Restart, k, err = num(k)
			} else {
				o.RestartStart = true
			}
		case r.peek(k, "cache"):
			if err = once("cache", k); err != nil {
				return o, k, err
			}
			o.Cache, k, err = num(k + 1)
		case r.peek(k, "owned") && r.peek(k+1, "by"):
			if err = once("owned", k); err != nil {
				return o, k, err
			}
			k += 2
			if r.peek(k, "none") {
				o.OwnedBy, k = "none", k+1
				break
			}
			// [schema.]table.column
			var parts []string
			for {
				if k >= len(r.toks) || r.toks[k].kind != tkIdent && r.toks[k].kind != tkQIdent {
					return o, k, r.syntaxErrorAt(k)
				}
				parts = append(parts, r.toks[k].val)
				k++
				if !r.peek(k, ".") {
					break
				}
				k++
			}
			switch {
			case len(parts) == 3:
				// A table of a user schema is named by its key
				// (catalog/schemas.go).
				parts = []string{parts[0] + "." + parts[1], parts[2]}
			case len(parts) != 2:
				return o, k, pgerr.New(pgerr.SyntaxError, "invalid relation name in OWNED BY").WithPosition(r.pos(k - 1))
			}
			o.OwnedBy = parts[0] + "." + parts[1]
		case r.peek(k, "bit_reversed"):
			if err = once("bit_reversed", k); err != nil {
				return o, k, err
			}
			o.BitReversed, k = true, k+1
		default:
			return o, k, r.syntaxErrorAt(k)
		}
		if err != nil {
			return o, k, err
		}
		if k == start {
			return o, k, r.syntaxErrorAt(k)
		}
	}
	return o, k, nil
}

// ParseSequenceOptions reads the sequence options of an identity column as
// written between its parentheses (Identity.Options).
func ParseSequenceOptions(text string) (SequenceOptions, error) {
	if strings.TrimSpace(text) == "" {
		return SequenceOptions{}, nil
	}
	toks, err := scan(text)
	if err != nil {
		return SequenceOptions{}, err
	}
	r := &rewriter{sql: text, toks: toks, ed: make([]edit, len(toks)), primStart: map[int]int{}, st: &Statement{}}
	o, k, err := r.sequenceOptions(0, false)
	if err != nil {
		return o, err
	}
	if k < len(toks) {
		return o, r.syntaxErrorAt(k)
	}
	return o, nil
}
