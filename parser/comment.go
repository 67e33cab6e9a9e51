package parser

import "github.com/zproxy/zproxy/internal/pgerr"

// CommentStatement is COMMENT ON TABLE | VIEW | INDEX | COLUMN name IS
// 'text' | NULL, which TiDB cannot parse. Statement.AST is nil for it;
// Statement.Comment holds it.
type CommentStatement struct {
	// Object is "table", "view", "materialized view", "index" or
	// "column".
	Object string
	// Name is the object's name, split at dots: [schema.]relation, and
	// for a column [schema.]relation.column.
	Name []string
	// Text is the comment; Null is IS NULL (the comment removed).
	Text string
	Null bool
	Pos  int // of the name, for errors
}

// commentStmt reads COMMENT ON ..., or returns nil for another statement.
func (r *rewriter) commentStmt() (*CommentStatement, error) {
	if !r.toks[0].is("comment") || !r.peek(1, "on") {
		return nil, nil
	}
	k := 2
	if k >= len(r.toks) || r.toks[k].kind != tkIdent {
		return nil, r.syntaxErrorAt(k)
	}
	cs := &CommentStatement{Object: r.toks[k].val}
	switch cs.Object {
	case "table", "view", "index", "column", "schema":
	case "materialized":
		if !r.peek(k+1, "view") {
			return nil, r.syntaxErrorAt(k + 1)
		}
		cs.Object = "materialized view"
		k++
	case "foreign", "database", "function", "type", "domain", "sequence", "role", "constraint", "trigger", "extension", "aggregate", "operator", "cast":
		return nil, pgerr.New(pgerr.FeatureNotSupported, "COMMENT ON %s is not supported", cs.Object).WithPosition(r.pos(k))
	default:
		return nil, r.syntaxErrorAt(k)
	}
	k++
	cs.Pos = r.pos(k)
	for {
		if k >= len(r.toks) || r.toks[k].kind != tkIdent && r.toks[k].kind != tkQIdent {
			return nil, r.syntaxErrorAt(k)
		}
		cs.Name = append(cs.Name, r.toks[k].val)
		k++
		if !r.peek(k, ".") {
			break
		}
		k++
	}
	if !r.peek(k, "is") {
		return nil, r.syntaxErrorAt(k)
	}
	k++
	switch {
	case r.peek(k, "null"):
		cs.Null = true
	case k < len(r.toks) && r.toks[k].kind == tkString && r.toks[k].str != strBit:
		cs.Text = r.toks[k].val
	default:
		return nil, r.syntaxErrorAt(k)
	}
	if k+1 < len(r.toks) {
		return nil, r.syntaxErrorAt(k + 1)
	}
	return cs, nil
}
