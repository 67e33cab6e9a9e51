package parser

// ExtensionStatement is CREATE EXTENSION or DROP EXTENSION. zproxy's
// extensions are built in, so the session records that the database
// created one (catalog.Extension), and anything else is not available.
type ExtensionStatement struct {
	// Drop is DROP EXTENSION; otherwise CREATE EXTENSION.
	Drop bool
	// Names are the extensions named (CREATE names exactly one), as
	// identifiers fold; NamePos the 1-based position of the first.
	Names   []string
	NamePos int
	// MissingOK is CREATE's IF NOT EXISTS or DROP's IF EXISTS.
	MissingOK bool
	// Schema and Version are CREATE's SCHEMA and VERSION ("" when not
	// given); Cascade is CASCADE.
	Schema, Version string
	Cascade         bool
}

// extensionStmt parses
//
//	CREATE EXTENSION [IF NOT EXISTS] name [WITH] [SCHEMA s] [VERSION v] [CASCADE]
//	DROP EXTENSION [IF EXISTS] name [, ...] [CASCADE | RESTRICT]
//
// or returns nil for another statement.
func (r *rewriter) extensionStmt() (*ExtensionStatement, error) {
	if len(r.toks) < 2 || !r.toks[1].is("extension") || !r.toks[0].is("create") && !r.toks[0].is("drop") {
		return nil, nil
	}
	es := &ExtensionStatement{Drop: r.toks[0].is("drop")}
	k := 2
	switch {
	case !es.Drop && r.peek(k, "if") && r.peek(k+1, "not") && r.peek(k+2, "exists"):
		es.MissingOK, k = true, k+3
	case es.Drop && r.peek(k, "if") && r.peek(k+1, "exists"):
		es.MissingOK, k = true, k+2
	}
	es.NamePos = r.pos(k)
	for {
		n, err := r.name(k)
		if err != nil {
			return nil, err
		}
		es.Names, k = append(es.Names, n), k+1
		if !es.Drop || !r.peek(k, ",") {
			break
		}
		k++
	}
	if !es.Drop && r.peek(k, "with") {
		k++
	}
	for k < len(r.toks) {
		switch {
		case !es.Drop && r.peek(k, "schema"):
			n, err := r.name(k + 1)
			if err != nil {
				return nil, err
			}
			es.Schema, k = n, k+2
		case !es.Drop && r.peek(k, "version"):
			if k+1 >= len(r.toks) || r.toks[k+1].kind != tkIdent && r.toks[k+1].kind != tkQIdent && r.toks[k+1].kind != tkString {
				return nil, r.syntaxErrorAt(k + 1)
			}
			es.Version, k = r.toks[k+1].val, k+2
		case r.peek(k, "cascade"):
			es.Cascade, k = true, k+1
		case es.Drop && r.peek(k, "restrict"):
			k++
		default:
			return nil, r.syntaxErrorAt(k)
		}
	}
	return es, nil
}
