package parser

import "github.com/zproxy/zproxy/internal/pgerr"

// CommentStatement is COMMENT ON TABLE | VIEW | INDEX | COLUMN name IS
// 'text' | NULL, which TiDB cannot parse. Statement.AST is nil for it;
// Statement.Comment holds it.
type CommentStatement struct {
	// Object is "table", "view", "materialized view", "index", "column",
	// "schema", "sequence", "trigger", "constraint", "database", "role",
	// "extension" or "large object".
	Object string
	// Name is the object's name, split at dots: [schema.]relation, and
	// for a column [schema.]relation.column.
	Name []string
	// On is a trigger's or constraint's relation ([schema.]relation),
	// split at dots.
	On []string
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
	case "table", "view", "index", "column", "schema", "sequence", "trigger", "database", "role", "constraint", "extension":
	case "large":
		// LARGE OBJECT oid: Name is the OID as written.
		if !r.peek(k+1, "object") {
			return nil, r.syntaxErrorAt(k + 1)
		}
		if k+2 >= len(r.toks) || r.toks[k+2].kind != tkNumber {
			return nil, r.syntaxErrorAt(k + 2)
		}
		cs.Object, cs.Name, cs.Pos = "large object", []string{r.toks[k+2].val}, r.pos(k+2)
		var err error
		cs.Text, cs.Null, err = r.commentText(k + 3)
		if err != nil {
			return nil, err
		}
		return cs, nil
	case "materialized":
		if !r.peek(k+1, "view") {
			return nil, r.syntaxErrorAt(k + 1)
		}
		cs.Object = "materialized view"
		k++
	case "foreign", "policy", "rule", "publication", "subscription", "collation", "conversion", "statistics", "tablespace", "event", "language", "transform", "access", "server", "text":
		return nil, pgerr.New(pgerr.FeatureNotSupported, "COMMENT ON %s is not supported", cs.Object).WithPosition(r.pos(k))
	default:
		return nil, r.syntaxErrorAt(k)
	}
	k++
	cs.Pos = r.pos(k)
	if (cs.Object == "trigger" || cs.Object == "constraint") && r.peek(k+1, ".") {
		return nil, r.syntaxErrorAt(k + 1) // a trigger's or constraint's name is a bare name
	}
	var err error
	if cs.Name, k, err = r.dottedName(k); err != nil {
		return nil, err
	}
	if cs.Object == "trigger" || cs.Object == "constraint" {
		if !r.peek(k, "on") {
			return nil, r.syntaxErrorAt(k)
		}
		if cs.On, k, err = r.dottedName(k + 1); err != nil {
			return nil, err
		}
	}
	cs.Text, cs.Null, err = r.commentText(k)
	if err != nil {
		return nil, err
	}
	return cs, nil
}

// dottedName reads a name of dot-separated identifiers at k.
func (r *rewriter) dottedName(k int) ([]string, int, error) {
	var name []string
	for {
		if k >= len(r.toks) || r.toks[k].kind != tkIdent && r.toks[k].kind != tkQIdent {
			return nil, k, r.syntaxErrorAt(k)
		}
		name = append(name, r.toks[k].val)
		k++
		if !r.peek(k, ".") {
			return name, k, nil
		}
		k++
	}
}

// commentText reads the end of COMMENT ON at k: IS 'text' | NULL.
func (r *rewriter) commentText(k int) (text string, null bool, err error) {
	if !r.peek(k, "is") {
		return "", false, r.syntaxErrorAt(k)
	}
	k++
	switch {
	case r.peek(k, "null"):
		null = true
	case k < len(r.toks) && r.toks[k].kind == tkString && r.toks[k].str != strBit:
		text = r.toks[k].val
	default:
		return "", false, r.syntaxErrorAt(k)
	}
	if k+1 < len(r.toks) {
		return "", false, r.syntaxErrorAt(k + 1)
	}
	return text, null, nil
}

// commentObjectStmt reads COMMENT ON FUNCTION | PROCEDURE | ROUTINE |
// AGGREGATE | OPERATOR | CAST | TYPE | DOMAIN | CONSTRAINT c ON DOMAIN, or
// returns nils for another statement. The
// comment is a change of the routine's or type's descriptor, so it is
// that object's statement (RoutineComment, TypeComment), found and
// checked as ALTER finds and checks it.
func (r *rewriter) commentObjectStmt() (*RoutineStatement, *TypeStatement, error) {
	if !r.toks[0].is("comment") || !r.peek(1, "on") {
		return nil, nil, nil
	}
	const k = 2
	switch {
	case r.peekAny(k, "function", "procedure", "routine"):
		rs := &RoutineStatement{Action: RoutineComment, Procedure: r.peek(k, "procedure"), EitherKind: r.peek(k, "routine")}
		ref, next, err := r.routineRef(k + 1)
		if err != nil {
			return nil, nil, err
		}
		rs.Refs = []RoutineRef{ref}
		rs.Comment, _, err = r.commentText(next)
		return rs, nil, err
	case r.peek(k, "aggregate"):
		rs := &RoutineStatement{Action: RoutineComment, Aggregate: &AggregateSpec{}}
		ref, next, err := r.aggregateSignature(k + 1)
		if err != nil {
			return nil, nil, err
		}
		rs.Refs = []RoutineRef{ref}
		rs.Comment, _, err = r.commentText(next)
		return rs, nil, err
	case r.peek(k, "operator") && !r.peekAny(k+1, "class", "family"):
		sig, next, err := r.operatorSig(k + 1)
		if err != nil {
			return nil, nil, err
		}
		rs := &RoutineStatement{Action: RoutineComment, Operator: &OperatorSpec{Drop: []OperatorSig{sig}}}
		rs.Comment, _, err = r.commentText(next)
		return rs, nil, err
	case r.peek(k, "cast"):
		rs := &RoutineStatement{Action: RoutineComment, Cast: &CastSpec{}}
		next, err := r.castTypes(rs.Cast, k+1)
		if err != nil {
			return nil, nil, err
		}
		rs.Comment, _, err = r.commentText(next)
		return rs, nil, err
	case r.peek(k, "constraint") && r.peek(k+2, "on") && r.peek(k+3, "domain"):
		// A domain's constraint: a change of the domain, as ALTER DOMAIN
		// ... RENAME CONSTRAINT is.
		ts := &TypeStatement{Action: DomainCommentConstraint, Domain: true, NamePos: r.pos(k + 4)}
		var err error
		if ts.Value, err = r.name(k + 1); err != nil {
			return nil, nil, err
		}
		name, next, err := r.relationName(k + 4)
		if err != nil {
			return nil, nil, err
		}
		ts.Names = []string{name}
		ts.Comment, _, err = r.commentText(next)
		return nil, ts, err
	case r.peekAny(k, "type", "domain"):
		ts := &TypeStatement{Action: TypeComment, Domain: r.peek(k, "domain"), NamePos: r.pos(k + 1)}
		name, next, err := r.relationName(k + 1)
		if err != nil {
			return nil, nil, err
		}
		ts.Names = []string{name}
		ts.Comment, _, err = r.commentText(next)
		return nil, ts, err
	}
	return nil, nil, nil
}
