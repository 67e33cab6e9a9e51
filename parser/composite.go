package parser

import (
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// Composite types: CREATE TYPE name AS (attr type [COLLATE c], ...) and
// ALTER TYPE name ADD ATTRIBUTE attr type | DROP ATTRIBUTE [IF EXISTS]
// attr | RENAME ATTRIBUTE attr TO new, each with [CASCADE | RESTRICT].

// The composite type actions of TypeStatement.
const (
	// TypeCreateComposite is CREATE TYPE name AS (Attrs).
	TypeCreateComposite TypeAction = iota + 64
	// TypeAddAttribute is ALTER TYPE name ADD ATTRIBUTE Attrs[0].
	TypeAddAttribute
	// TypeDropAttribute is ALTER TYPE name DROP ATTRIBUTE [IF EXISTS]
	// Value (MissingOK).
	TypeDropAttribute
	// TypeRenameAttribute is ALTER TYPE name RENAME ATTRIBUTE Value TO
	// NewName.
	TypeRenameAttribute
)

// TypeAttr is one attribute of a composite type as written: a built-in
// Type, or TypeName naming a user-defined one ("addr", "addr[]") for the
// binder to look up.
type TypeAttr struct {
	Name     string
	Type     sqltypes.Type
	TypeName string
	// Pos is the 1-based position of the type.
	Pos int
}

// compositeAttr reads "name type [COLLATE c]" at k.
func (r *rewriter) compositeAttr(k int) (TypeAttr, int, error) {
	name, err := r.name(k)
	if err != nil {
		return TypeAttr{}, k, err
	}
	a := TypeAttr{Name: name, Pos: r.pos(k + 1)}
	typ, udt, next, err := r.parseTypeRef(k + 1)
	if err != nil {
		return a, next, err
	}
	a.Type, a.TypeName = typ, udt
	if r.peek(next, "collate") {
		next += 2
	}
	return a, next, nil
}

// createComposite reads the attribute list of CREATE TYPE name AS (...)
// at k, the "(".
func (r *rewriter) createComposite(ts *TypeStatement, k int) (*TypeStatement, error) {
	ts.Action = TypeCreateComposite
	if r.peek(k+1, ")") {
		k += 2 // a composite type without attributes, as PostgreSQL allows
	} else {
		var err error
		if k, err = r.parenList(k, func(k int) (int, error) {
			a, next, err := r.compositeAttr(k)
			ts.Attrs = append(ts.Attrs, a)
			return next, err
		}); err != nil {
			return nil, err
		}
	}
	if k < len(r.toks) {
		return nil, r.syntaxErrorAt(k)
	}
	return ts, nil
}

// alterAttribute reads ALTER TYPE's attribute actions at k, or returns
// nil when the action is no attribute's.
func (r *rewriter) alterAttribute(ts *TypeStatement, k int) (*TypeStatement, error) {
	var err error
	switch {
	case r.peek(k, "add") && r.peek(k+1, "attribute"):
		ts.Action = TypeAddAttribute
		var a TypeAttr
		if a, k, err = r.compositeAttr(k + 2); err != nil {
			return nil, err
		}
		ts.Attrs = []TypeAttr{a}
	case r.peek(k, "drop") && r.peek(k+1, "attribute"):
		ts.Action, k = TypeDropAttribute, k+2
		if r.peek(k, "if") && r.peek(k+1, "exists") {
			ts.MissingOK, k = true, k+2
		}
		if ts.Value, err = r.name(k); err != nil {
			return nil, err
		}
		k++
	case r.peek(k, "rename") && r.peek(k+1, "attribute"):
		ts.Action = TypeRenameAttribute
		if k, err = r.renamePair(ts, k+2, r.name); err != nil {
			return nil, err
		}
	default:
		return nil, nil
	}
	switch {
	case r.peek(k, "cascade"):
		ts.Cascade, k = true, k+1
	case r.peek(k, "restrict"):
		k++
	}
	if r.peek(k, ",") {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "ALTER TYPE with several actions is not supported").WithPosition(r.pos(k))
	}
	if k < len(r.toks) {
		return nil, r.syntaxErrorAt(k)
	}
	return ts, nil
}

// singleItem reports whether the parenthesis at open holds at most one
// item (no comma outside inner parentheses and brackets).
func (r *rewriter) singleItem(open int) bool {
	close := r.matching(open)
	if close < 0 {
		return false
	}
	depth := 0
	for j := open + 1; j < close; j++ {
		switch {
		case r.toks[j].is("(") || r.toks[j].is("["):
			depth++
		case r.toks[j].is(")") || r.toks[j].is("]"):
			depth--
		case r.toks[j].is(",") && depth == 0:
			return false
		}
	}
	return true
}
