package parser

// TruncateStatement is TRUNCATE [TABLE] [ONLY] name [*], ...
// [RESTART IDENTITY | CONTINUE IDENTITY] [CASCADE | RESTRICT], parsed by the
// front end (TiDB's TRUNCATE takes one table and no options).
type TruncateStatement struct {
	Tables []string
	// RestartIdentity resets the sequences the tables' columns own.
	RestartIdentity bool
	Cascade         bool
	// Pos is the byte offset of the first table name, for errors.
	Pos int
}

func (r *rewriter) truncateStmt() (*TruncateStatement, error) {
	if !r.peek(0, "truncate") {
		return nil, nil
	}
	k := 1
	if r.peek(k, "table") {
		k++
	}
	st := &TruncateStatement{Pos: r.pos(min(k, len(r.toks)-1))}
	tables, k, err := r.relationList(k)
	if err != nil {
		return nil, err
	}
	st.Tables = tables
	for k < len(r.toks) {
		switch {
		case r.peek(k, "restart") && r.peek(k+1, "identity"):
			st.RestartIdentity, k = true, k+2
		case r.peek(k, "continue") && r.peek(k+1, "identity"):
			st.RestartIdentity, k = false, k+2
		case r.peek(k, "cascade"):
			st.Cascade, k = true, k+1
		case r.peek(k, "restrict"):
			k++
		default:
			return nil, r.syntaxErrorAt(k)
		}
	}
	return st, nil
}

// relationList reads [ONLY] name [*], ... from token k (TRUNCATE's and
// LOCK's lists; zproxy has no inheritance, so ONLY and * change nothing)
// and returns the names and the token after the list.
func (r *rewriter) relationList(k int) ([]string, int, error) {
	var names []string
	for {
		if r.peek(k, "only") {
			k++
		}
		name, next, err := r.relationName(k)
		if err != nil {
			return nil, k, err
		}
		names = append(names, name)
		k = next
		if r.peek(k, "*") {
			k++
		}
		if !r.peek(k, ",") {
			return names, k, nil
		}
		k++
	}
}
