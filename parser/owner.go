package parser

import "github.com/zproxy/zproxy/internal/pgerr"

// OwnerStatement is ALTER TABLE | SEQUENCE | VIEW [IF EXISTS] [ONLY] name
// OWNER TO role, or ALTER LARGE OBJECT oid OWNER TO role, parsed by the
// front end (pg_dump writes one for every relation and large object it
// creates).
type OwnerStatement struct {
	// Kind is the keyword after ALTER: "table", "sequence" or "view"
	// (ALTER TABLE may name any of the three, as in PostgreSQL), or
	// "large object" (Name is then its OID as written).
	Kind     string
	Name     string
	IfExists bool
	// Role is the new owner; CURRENT_USER, CURRENT_ROLE and SESSION_USER
	// are kept as those words, in lower case, for the session to resolve.
	Role string
	// Pos is the 1-based position of the name, for errors.
	Pos int
}

func (r *rewriter) ownerStmt() (*OwnerStatement, error) {
	if r.peek(0, "alter") && r.peek(1, "large") && r.peek(2, "object") {
		return r.largeObjectOwner()
	}
	if !r.peek(0, "alter") || !(r.peek(1, "table") || r.peek(1, "sequence") || r.peek(1, "view")) {
		return nil, nil
	}
	n := len(r.toks)
	if n < 6 || !r.peek(n-3, "owner") || !r.peek(n-2, "to") {
		return nil, nil
	}
	st := &OwnerStatement{Kind: r.toks[1].val}
	k := 2
	if r.peek(k, "if") && r.peek(k+1, "exists") {
		st.IfExists, k = true, k+2
	}
	if r.peek(k, "only") {
		k++
	}
	st.Pos = r.pos(k)
	name, next, err := r.relationName(k)
	if err != nil {
		return nil, err
	}
	if next != n-3 {
		return nil, nil // more than OWNER TO: another ALTER form
	}
	st.Name = name
	role := r.toks[n-1]
	if role.kind != tkIdent && role.kind != tkQIdent {
		return nil, r.syntaxErrorAt(n - 1)
	}
	st.Role = role.val
	return st, nil
}

// largeObjectOwner reads ALTER LARGE OBJECT oid OWNER TO role.
func (r *rewriter) largeObjectOwner() (*OwnerStatement, error) {
	const k = 3
	if k >= len(r.toks) || r.toks[k].kind != tkNumber {
		return nil, r.syntaxErrorAt(k)
	}
	if !r.peek(k+1, "owner") || !r.peek(k+2, "to") {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "this form of ALTER LARGE OBJECT is not supported").WithPosition(r.pos(k + 1))
	}
	if k+3 >= len(r.toks) || r.toks[k+3].kind != tkIdent && r.toks[k+3].kind != tkQIdent {
		return nil, r.syntaxErrorAt(k + 3)
	}
	if k+4 < len(r.toks) {
		return nil, r.syntaxErrorAt(k + 4)
	}
	return &OwnerStatement{Kind: "large object", Name: r.toks[k].val, Role: r.toks[k+3].val, Pos: r.pos(k)}, nil
}
