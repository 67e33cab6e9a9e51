package parser

import (
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// ReindexStatement is REINDEX [ ( option [, ...] ) ] { INDEX | TABLE |
// SCHEMA | DATABASE | SYSTEM } [ CONCURRENTLY ] [ name ], parsed by the
// front end (TiDB has no REINDEX).
type ReindexStatement struct {
	// Kind is what is named: "index", "table", "schema", "database" or
	// "system".
	Kind string
	// Name is the object's name.
	Name         string
	Concurrently bool
	Verbose      bool
	// Pos is the byte offset of the name, for errors.
	Pos int
}

func (r *rewriter) reindexStmt() (*ReindexStatement, error) {
	if !r.peek(0, "reindex") {
		return nil, nil
	}
	st := &ReindexStatement{}
	k := 1
	if r.peek(k, "(") {
		k++
		for {
			if k >= len(r.toks) || r.toks[k].kind != tkIdent {
				return nil, r.syntaxErrorAt(k)
			}
			opt, at := r.toks[k].val, k
			k++
			on := true
			if k < len(r.toks) && !r.peek(k, ",") && !r.peek(k, ")") {
				switch strings.ToLower(r.toks[k].val) {
				case "true", "on", "1":
				case "false", "off", "0":
					on = false
				default:
					return nil, pgerr.New(pgerr.SyntaxError, "%s requires a Boolean value", opt).WithPosition(r.pos(k))
				}
				k++
			}
			switch opt {
			case "verbose":
				st.Verbose = on
			case "concurrently":
				st.Concurrently = on
			case "tablespace":
				return nil, pgerr.New(pgerr.FeatureNotSupported, "REINDEX (TABLESPACE) is not supported: zproxy has no tablespaces").WithPosition(r.pos(at))
			default:
				return nil, pgerr.New(pgerr.SyntaxError, "unrecognized REINDEX option \"%s\"", opt).WithPosition(r.pos(at))
			}
			if r.peek(k, ")") {
				k++
				break
			}
			if !r.peek(k, ",") {
				return nil, r.syntaxErrorAt(k)
			}
			k++
		}
	}
	switch {
	case r.peek(k, "index"), r.peek(k, "table"), r.peek(k, "schema"), r.peek(k, "database"), r.peek(k, "system"):
		st.Kind = r.toks[k].val
		k++
	default:
		return nil, r.syntaxErrorAt(k)
	}
	if r.peek(k, "concurrently") {
		st.Concurrently = true
		k++
	}
	if k == len(r.toks) {
		return nil, r.syntaxErrorAt(k) // PostgreSQL 15 wants a name for every kind
	}
	st.Pos = r.pos(k)
	var err error
	if st.Kind == "index" || st.Kind == "table" {
		st.Name, k, err = r.relationName(k)
	} else if r.toks[k].kind == tkIdent || r.toks[k].kind == tkQIdent {
		st.Name, k = r.toks[k].val, k+1
	} else {
		err = r.syntaxErrorAt(k)
	}
	if err != nil {
		return nil, err
	}
	if k != len(r.toks) {
		return nil, r.syntaxErrorAt(k)
	}
	return st, nil
}
