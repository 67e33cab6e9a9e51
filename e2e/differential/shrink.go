package differential

import (
	"slices"
)

// The minimiser shrinks a statement by single mutations (drop a clause, a
// conjunct, a select item, a FROM item; replace a join by one side, a set
// operation by one operand, an expression by an operand or a constant),
// keeping each one after which the statement still mismatches the same
// way, until none is left. A mutation that breaks the statement makes both
// servers fail alike, which is no mismatch, so it is simply not kept.

// mutator walks a statement and applies its target-th mutation point,
// remembering how to undo it.
type mutator struct {
	target int
	n      int
	undo   func()
}

// at reports whether the current mutation point is the target, counting it.
func (m *mutator) at() bool {
	hit := m.n == m.target && m.undo == nil
	m.n++
	return hit
}

func (m *mutator) stmt(s *stmt) {
	switch s.kind {
	case kQuery:
		m.query(&s.q)
	case kWrite:
		m.write(s.w)
	}
}

func (m *mutator) write(w *writeStmt) {
	if w.where != nil && m.at() {
		old := w.where
		w.where = nil
		m.undo = func() { w.where = old }
	}
	if len(w.returning) > 0 && m.at() {
		old := w.returning
		w.returning = nil
		m.undo = func() { w.returning = old }
	}
	if w.conflict != "" && m.at() {
		old := w.conflict
		w.conflict = ""
		m.undo = func() { w.conflict = old }
	}
	if len(w.from) > 0 && w.on == nil && m.at() {
		old := w.from
		w.from = nil
		m.undo = func() { w.from = old }
	}
	if w.verb == "UPDATE" && len(w.cols) > 1 {
		for i := range w.cols {
			if m.at() {
				oc, os := w.cols, w.set
				w.cols = slices.Delete(slices.Clone(w.cols), i, i+1)
				w.set = slices.Delete(slices.Clone(w.set), i, i+1)
				m.undo = func() { w.cols, w.set = oc, os }
			}
		}
	}
	if w.src != nil {
		m.query(&w.src)
	}
	for i := range w.set {
		m.expr(&w.set[i])
	}
	if w.on == nil {
		// The source of UPDATE ... FROM matches each row at most once
		// thanks to its GROUP BY and the join: both stay.
		m.fromList(&w.from)
	}
	if w.where != nil {
		m.expr(&w.where)
	}
	for i := range w.returning {
		if w.returning[i].e != nil {
			m.expr(&w.returning[i].e)
		}
	}
}

// query visits a query slot: a set operation can become one of its
// operands.
func (m *mutator) query(slot *query) {
	switch q := (*slot).(type) {
	case *setStmt:
		for _, side := range []query{q.left, q.right} {
			if m.at() {
				old := *slot
				*slot = side
				m.undo = func() { *slot = old }
			}
		}
		m.ctes(&q.with)
		m.order(&q.orderBy, &q.limit, &q.offset)
		m.query(&q.left)
		m.query(&q.right)
	case *selectStmt:
		m.selectStmt(q)
	}
}

func (m *mutator) ctes(with *[]*cte) {
	for i := range *with {
		if m.at() {
			old := *with
			*with = slices.Delete(slices.Clone(old), i, i+1)
			m.undo = func() { *with = old }
		}
	}
	for _, c := range *with {
		m.query(&c.q)
	}
}

func (m *mutator) order(order *[]orderItem, limit, offset *int) {
	// Under a LIMIT the ORDER BY decides which rows are kept: it goes
	// only after the LIMIT has.
	if *limit < 0 && *offset < 0 {
		m.orderKeys(order)
	}
	if *limit >= 0 && m.at() {
		old := *limit
		*limit = -1
		m.undo = func() { *limit = old }
	}
	if *offset >= 0 && m.at() {
		old := *offset
		*offset = -1
		m.undo = func() { *offset = old }
	}
}

func (m *mutator) orderKeys(order *[]orderItem) {
	if len(*order) > 0 && m.at() {
		old := *order
		*order = nil
		m.undo = func() { *order = old }
	}
	for i := range *order {
		if len(*order) > 1 && m.at() {
			old := *order
			*order = slices.Delete(slices.Clone(old), i, i+1)
			m.undo = func() { *order = old }
		}
	}
}

func (m *mutator) selectStmt(s *selectStmt) {
	m.ctes(&s.with)
	if s.distinct && m.at() {
		s.distinct = false
		m.undo = func() { s.distinct = true }
	}
	for i := range s.items {
		if len(s.items) > 1 && m.at() {
			oi, oo := s.items, s.out
			s.items = slices.Delete(slices.Clone(oi), i, i+1)
			if len(oo) == len(oi) {
				s.out = slices.Delete(slices.Clone(oo), i, i+1)
			}
			m.undo = func() { s.items, s.out = oi, oo }
		}
	}
	if s.where != nil && m.at() {
		old := s.where
		s.where = nil
		m.undo = func() { s.where = old }
	}
	if s.having != nil && m.at() {
		old := s.having
		s.having = nil
		m.undo = func() { s.having = old }
	}
	if len(s.groupBy) > 0 && m.at() {
		old := s.groupBy
		s.groupBy = nil
		m.undo = func() { s.groupBy = old }
	}
	for i := range s.groupBy {
		if len(s.groupBy) > 1 && m.at() {
			old := s.groupBy
			s.groupBy = slices.Delete(slices.Clone(old), i, i+1)
			m.undo = func() { s.groupBy = old }
		}
	}
	if len(s.windows) > 0 && m.at() {
		old := s.windows
		s.windows = nil
		m.undo = func() { s.windows = old }
	}
	m.order(&s.orderBy, &s.limit, &s.offset)
	m.fromList(&s.from)
	for i := range s.items {
		if s.items[i].e != nil {
			m.expr(&s.items[i].e)
		}
	}
	if s.where != nil {
		m.expr(&s.where)
	}
	if s.having != nil {
		m.expr(&s.having)
	}

	for i := range s.orderBy {
		if s.orderBy[i].e != nil {
			m.expr(&s.orderBy[i].e)
		}
	}
}

func (m *mutator) fromList(items *[]*fromItem) {
	for i := range *items {
		if len(*items) > 1 && m.at() {
			old := *items
			*items = slices.Delete(slices.Clone(old), i, i+1)
			m.undo = func() { *items = old }
		}
	}
	for i := range *items {
		m.fromItem(&(*items)[i])
	}
}

func (m *mutator) fromItem(slot **fromItem) {
	f := *slot
	switch f.kind {
	case fJoin:
		for _, side := range []*fromItem{f.left, f.right} {
			if m.at() {
				*slot = side
				m.undo = func() { *slot = f }
			}
		}
		if f.joinType != "JOIN" && f.joinType != "CROSS JOIN" && m.at() {
			old := f.joinType
			f.joinType = "JOIN"
			m.undo = func() { f.joinType = old }
		}
		m.fromItem(&f.left)
		m.fromItem(&f.right)
		if f.on != nil {
			m.expr(&f.on)
		}
	case fSub:
		if f.lateral && m.at() {
			f.lateral = false
			m.undo = func() { f.lateral = true }
		}
		m.query(&f.sub)
	case fValues:
		for i := range f.values {
			if len(f.values) > 1 && m.at() {
				old := f.values
				f.values = slices.Delete(slices.Clone(old), i, i+1)
				m.undo = func() { f.values = old }
			}
		}
		for _, row := range f.values {
			for j := range row {
				m.expr(&row[j])
			}
		}
	}
}

// expr visits an expression slot: it can become one of its operands (of
// the same class), NULL, or, for a predicate, true.
func (m *mutator) expr(slot **expr) {
	e := *slot
	if e == nil {
		return
	}
	if e.t != tNull { // not a window specification
		if e.tmpl != "NULL" && e.tmpl != "true" && m.at() {
			repl := leaf(e.t, "NULL")
			if e.t == tBool {
				repl = leaf(tBool, "true")
			}
			*slot = repl
			m.undo = func() { *slot = e }
		}
		if !e.agg && !e.win {
			for _, a := range e.args {
				if a.t == tNull && a.tmpl != "NULL" || !sameClass(a.t, e.t) {
					continue
				}
				if m.at() {
					*slot = a
					m.undo = func() { *slot = e }
				}
			}
		}
	}
	for i := range e.args {
		if e.args[i].t == tNull && len(e.args[i].args) > 0 {
			// A window's PARTITION BY / ORDER BY: changing it can make
			// an order-sensitive function's result arbitrary.
			continue
		}
		m.expr(&e.args[i])
	}
	if e.sub != nil {
		m.query(&e.sub)
	}
}

func sameClass(a, b typ) bool { return a.class() == b.class() || a == tNull || b == tNull }

// mutate applies mutation point i of s, returning its undo, or nil when s
// has fewer points.
func mutate(s *stmt, i int) func() {
	m := &mutator{target: i}
	m.stmt(s)
	return m.undo
}
