package optimizer

import (
	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/ir"
)

// LockRows takes a locking read's row locks on the rows of its input, a
// sort of one table's rows: PostgreSQL's LockRows, which sits above the
// sort and below the LIMIT, so that SELECT ... ORDER BY x LIMIT n FOR
// UPDATE locks the n rows it returns, not every row the scan read, and SKIP
// LOCKED leaves out rows before the LIMIT counts them. Elsewhere the scan
// takes the locks of the rows it yields (Scan.Lock).
type LockRows struct {
	Input Node
	Table *catalog.Table
	// Keys are the input columns holding the table's primary-key columns,
	// in the key's order.
	Keys []int
	Lock ir.LockStrength
}

var _ Node = (*LockRows)(nil)

// Inputs implements Node.
func (n *LockRows) Inputs() []Node { return []Node{n.Input} }

// Expressions implements Node.
func (n *LockRows) Expressions() []ir.Expr { return nil }

// Columns implements Node.
func (n *LockRows) Columns() []ir.Column { return n.Input.Columns() }

// Describe implements Node.
func (n *LockRows) Describe() Description {
	d := Description{Head: "LockRows"}
	d.add("locks", "%s", lockClause(n.Table.Name, n.Lock))
	return d
}

// lockClause is a lock as a locking clause prints it.
func lockClause(table string, s ir.LockStrength) string {
	out := "FOR UPDATE OF " + table
	if s.Strength() == ir.LockShare {
		out = "FOR SHARE OF " + table
	}
	switch {
	case s&ir.LockSkipLocked != 0:
		out += " SKIP LOCKED"
	case s&ir.LockNoWait != 0:
		out += " NOWAIT"
	}
	return out
}

// lockAboveSort moves the row locks of a sorted locking read to a
// LockRows above its sort (sort, over in): when in is the locking scan of
// one table, or a projection of it that keeps the table's primary-key
// columns, the scan locks nothing and the returned LockRows locks the
// sorted rows. Under SKIP LOCKED the sort gives them whole (no top-N: the
// LIMIT above counts the rows LockRows passes on). ok is false, and
// nothing changes, for any other input.
func lockAboveSort(sort *Sort, in Node) (Node, bool) {
	var scan *Scan
	var keys []int
	switch x := in.(type) {
	case *Scan:
		scan = x
		for _, k := range x.Table.PrimaryKey {
			keys = append(keys, k.Column)
		}
	case *Project:
		s, ok := x.Input.(*Scan)
		if !ok {
			return nil, false
		}
		scan = s
		for _, k := range s.Table.PrimaryKey {
			at := -1
			for i, e := range x.Exprs {
				if ref, ok := e.(*ir.ColRef); ok && ref.Index == k.Column {
					at = i
					break
				}
			}
			if at < 0 {
				return nil, false // the key is not among the sorted columns
			}
			keys = append(keys, at)
		}
	default:
		return nil, false
	}
	if scan.Lock == ir.LockNone || scan.Dynamic || scan.Partitions != nil || len(keys) == 0 {
		return nil, false
	}
	lock := scan.Lock
	scan.Lock = ir.LockNone
	if lock&ir.LockSkipLocked != 0 {
		sort.Limit = 0
	}
	return &LockRows{Input: sort, Table: scan.Table, Keys: keys, Lock: lock}, true
}
