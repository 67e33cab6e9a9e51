package parser

// OwnerStatement is ALTER TABLE | SEQUENCE | VIEW [IF EXISTS] [ONLY] name
// OWNER TO role, parsed by the front end (pg_dump writes one for every
// relation it creates).
type OwnerStatement struct {
	// Kind is the keyword after ALTER: "table", "sequence" or "view"
	// (ALTER TABLE may name any of the three, as in PostgreSQL).
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
