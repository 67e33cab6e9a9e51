package parser

import "strings"

// LockStatement is LOCK [TABLE] [ONLY] name [*], ... [IN mode MODE]
// [NOWAIT], parsed by the front end (TiDB's LOCK TABLES is MySQL's).
type LockStatement struct {
	Tables []string
	// Mode is the lock mode in capitals ("ACCESS SHARE"); ACCESS
	// EXCLUSIVE when the statement names none, as in PostgreSQL.
	Mode   string
	NoWait bool
	// Pos is the 1-based position of the first table name, for errors.
	Pos int
}

// lockModes are PostgreSQL's table lock modes, weakest first.
var lockModes = []string{"ACCESS SHARE", "ROW SHARE", "ROW EXCLUSIVE", "SHARE UPDATE EXCLUSIVE", "SHARE",
	"SHARE ROW EXCLUSIVE", "EXCLUSIVE", "ACCESS EXCLUSIVE"}

func (r *rewriter) lockStmt() (*LockStatement, error) {
	if !r.peek(0, "lock") {
		return nil, nil
	}
	k := 1
	if r.peek(k, "table") {
		k++
	}
	st := &LockStatement{Mode: "ACCESS EXCLUSIVE", Pos: r.pos(min(k, len(r.toks)-1))}
	tables, _, k, err := r.relationList(k)
	if err != nil {
		return nil, err
	}
	st.Tables = tables
	if r.peek(k, "in") {
		k++
		var words []string
		for k < len(r.toks) && !r.peek(k, "mode") {
			if r.toks[k].kind != tkIdent {
				return nil, r.syntaxErrorAt(k)
			}
			words = append(words, strings.ToUpper(r.toks[k].val))
			k++
		}
		mode := strings.Join(words, " ")
		known := false
		for _, m := range lockModes {
			known = known || m == mode
		}
		if !known || !r.peek(k, "mode") {
			return nil, r.syntaxErrorAt(k)
		}
		st.Mode = mode
		k++
	}
	if r.peek(k, "nowait") {
		st.NoWait = true
		k++
	}
	if k < len(r.toks) {
		return nil, r.syntaxErrorAt(k)
	}
	return st, nil
}
