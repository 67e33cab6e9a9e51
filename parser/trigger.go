package parser

import (
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// Triggers: CREATE [OR REPLACE] TRIGGER, DROP TRIGGER, ALTER TRIGGER ...
// RENAME and ALTER TABLE ... ENABLE | DISABLE TRIGGER, read by the front
// end into a TriggerStatement (TiDB has none of them).

// TriggerAction is what a TriggerStatement does.
type TriggerAction uint8

// The trigger statements.
const (
	TriggerCreate TriggerAction = iota
	TriggerDrop
	TriggerRename
	// TriggerEnable is ALTER TABLE t ENABLE (Enable) or DISABLE TRIGGER
	// name | ALL | USER (Name "" for ALL and USER).
	TriggerEnable
)

// TriggerStatement is one of the trigger statements.
type TriggerStatement struct {
	Action  TriggerAction
	Replace bool
	Name    string
	Table   string
	// Timing is BEFORE, AFTER or INSTEAD OF; Events INSERT, UPDATE,
	// DELETE, TRUNCATE as written; Columns UPDATE OF's.
	Timing  string
	Events  []string
	Columns []string
	Row     bool
	// When is WHEN's condition as written; WhenNew and WhenOld say it
	// names NEW or OLD.
	When             string
	WhenNew, WhenOld bool
	// Referencing are REFERENCING's transition tables, as written.
	Referencing []TransitionTable
	// Constraint is CREATE CONSTRAINT TRIGGER, with FROM's table
	// (ConstrTable), DEFERRABLE and INITIALLY DEFERRED.
	Constraint        bool
	ConstrTable       string
	Deferrable        bool
	InitiallyDeferred bool
	// Function and Args are EXECUTE FUNCTION's.
	Function string
	Args     []string
	// MissingOK and Cascade are DROP's; NewName RENAME's; Enable ALTER
	// TABLE's.
	MissingOK bool
	Cascade   bool
	NewName   string
	Enable    bool
	// Only is ALTER TABLE ONLY ... ENABLE | DISABLE TRIGGER.
	Only bool
}

// TransitionTable is one of REFERENCING's OLD TABLE or NEW TABLE.
type TransitionTable struct {
	Old  bool
	Name string
}

// triggerStmt parses the trigger statements, or returns nil for another.
func (r *rewriter) triggerStmt() (*TriggerStatement, error) {
	switch {
	case r.peek(0, "create") && (r.peek(1, "trigger") || r.peek(1, "or") && r.peek(2, "replace") && r.peek(3, "trigger")):
		ts := &TriggerStatement{Action: TriggerCreate}
		k := 2
		if r.peek(1, "or") {
			ts.Replace, k = true, 4
		}
		return ts, r.createTrigger(ts, k)
	case r.peek(0, "create") && r.peek(1, "constraint") && r.peek(2, "trigger"):
		ts := &TriggerStatement{Action: TriggerCreate, Constraint: true}
		return ts, r.createTrigger(ts, 3)
	case r.peek(0, "create") && r.peek(1, "or") && r.peek(2, "replace") && r.peek(3, "constraint") && r.peek(4, "trigger"):
		return nil, pgerr.New(pgerr.FeatureNotSupported, "CREATE OR REPLACE CONSTRAINT TRIGGER is not supported").WithPosition(r.pos(0))
	case r.peek(0, "drop") && r.peek(1, "trigger"):
		ts := &TriggerStatement{Action: TriggerDrop}
		k := 2
		if r.peek(k, "if") && r.peek(k+1, "exists") {
			ts.MissingOK, k = true, k+2
		}
		var err error
		if ts.Name, err = r.name(k); err != nil {
			return nil, err
		}
		if !r.peek(k+1, "on") {
			return nil, r.syntaxErrorAt(k + 1)
		}
		if ts.Table, k, err = r.relationName(k + 2); err != nil {
			return nil, err
		}
		switch {
		case r.peek(k, "cascade"):
			ts.Cascade, k = true, k+1
		case r.peek(k, "restrict"):
			k++
		}
		if k < len(r.toks) {
			return nil, r.syntaxErrorAt(k)
		}
		return ts, nil
	case r.peek(0, "alter") && r.peek(1, "trigger"):
		ts := &TriggerStatement{Action: TriggerRename}
		var err error
		if ts.Name, err = r.name(2); err != nil {
			return nil, err
		}
		if !r.peek(3, "on") {
			return nil, r.syntaxErrorAt(3)
		}
		k := 0
		if ts.Table, k, err = r.relationName(4); err != nil {
			return nil, err
		}
		if !r.peek(k, "rename") || !r.peek(k+1, "to") {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "this form of ALTER TRIGGER is not supported").WithPosition(r.pos(0))
		}
		if ts.NewName, err = r.name(k + 2); err != nil {
			return nil, err
		}
		if k+3 < len(r.toks) {
			return nil, r.syntaxErrorAt(k + 3)
		}
		return ts, nil
	case r.peek(0, "alter") && r.peek(1, "table"):
		k := 2
		if r.peek(k, "if") && r.peek(k+1, "exists") {
			k += 2
		}
		only := r.peek(k, "only")
		if only {
			k++
		}
		table, next, err := r.relationName(k)
		if err != nil || !(r.peek(next, "enable") || r.peek(next, "disable")) || !r.peek(next+1, "trigger") {
			return nil, nil
		}
		ts := &TriggerStatement{Action: TriggerEnable, Table: table, Enable: r.peek(next, "enable"), Only: only}
		k = next + 2
		switch {
		case r.peek(k, "all") || r.peek(k, "user"):
		default:
			if ts.Name, err = r.name(k); err != nil {
				return nil, err
			}
		}
		if k+1 < len(r.toks) {
			return nil, r.syntaxErrorAt(k + 1)
		}
		return ts, nil
	}
	return nil, nil
}

// createTrigger reads CREATE TRIGGER's rest from k.
func (r *rewriter) createTrigger(ts *TriggerStatement, k int) error {
	var err error
	if ts.Name, err = r.name(k); err != nil {
		return err
	}
	k++
	switch {
	case r.peek(k, "after"), r.peek(k, "before") && !ts.Constraint:
		ts.Timing, k = strings.ToUpper(r.toks[k].val), k+1
	case r.peek(k, "instead") && r.peek(k+1, "of") && !ts.Constraint:
		ts.Timing, k = "INSTEAD OF", k+2
	default:
		return r.syntaxErrorAt(k)
	}
	for {
		switch {
		case r.peekAny(k, "insert", "delete", "truncate"):
			ts.Events, k = append(ts.Events, strings.ToUpper(r.toks[k].val)), k+1
		case r.peek(k, "update"):
			ts.Events, k = append(ts.Events, "UPDATE"), k+1
			if r.peek(k, "of") {
				k++
				for {
					c, err := r.name(k)
					if err != nil {
						return err
					}
					ts.Columns, k = append(ts.Columns, c), k+1
					if !r.peek(k, ",") {
						break
					}
					k++
				}
			}
		default:
			return r.syntaxErrorAt(k)
		}
		if !r.peek(k, "or") {
			break
		}
		k++
	}
	if !r.peek(k, "on") {
		return r.syntaxErrorAt(k)
	}
	if ts.Table, k, err = r.relationName(k + 1); err != nil {
		return err
	}
	if ts.Constraint {
		if k, err = r.constraintTriggerOptions(ts, k); err != nil {
			return err
		}
		// A constraint trigger is FOR EACH ROW, written so.
		if !r.peek(k, "for") || !r.peek(k+1, "each") || !r.peek(k+2, "row") {
			switch {
			case !r.peek(k, "for"):
			case !r.peek(k+1, "each"):
				k++
			default:
				k += 2
			}
			return r.syntaxErrorAt(k)
		}
	} else if r.peek(k, "referencing") {
		if k, err = r.referencing(ts, k+1); err != nil {
			return err
		}
	}
	if r.peek(k, "for") {
		k++
		if r.peek(k, "each") {
			k++
		}
		switch {
		case r.peek(k, "row"):
			ts.Row = true
		case r.peek(k, "statement"):
		default:
			return r.syntaxErrorAt(k)
		}
		k++
	}
	if r.peek(k, "when") {
		if !r.peek(k+1, "(") {
			return r.syntaxErrorAt(k + 1)
		}
		close := r.matching(k + 1)
		if close < 0 || close == k+2 {
			return r.syntaxErrorAt(len(r.toks))
		}
		// Parentheses around the whole condition are dropped, so a
		// condition pg_dump printed (WHEN ((cond))) prints as it did.
		from, to := k+2, close-1
		for r.peek(from, "(") && r.matching(from) == to && to > from+1 {
			from, to = from+1, to-1
		}
		ts.When = r.sql[r.toks[from].start:r.toks[to].end]
		for i := from; i <= to; i++ {
			if t := r.toks[i]; t.kind == tkIdent || t.kind == tkQIdent {
				ts.WhenNew = ts.WhenNew || strings.EqualFold(t.val, "new")
				ts.WhenOld = ts.WhenOld || strings.EqualFold(t.val, "old")
			}
		}
		k = close + 1
	}
	if !r.peek(k, "execute") || !r.peekAny(k+1, "function", "procedure") {
		return r.syntaxErrorAt(k)
	}
	if ts.Function, k, err = r.relationName(k + 2); err != nil {
		return err
	}
	if !r.peek(k, "(") {
		return r.syntaxErrorAt(k)
	}
	k++
	for !r.peek(k, ")") {
		if k >= len(r.toks) {
			return r.syntaxErrorAt(k)
		}
		t := r.toks[k]
		switch t.kind {
		case tkString, tkIdent, tkNumber, tkQIdent:
			ts.Args = append(ts.Args, t.val)
		default:
			return r.syntaxErrorAt(k)
		}
		k++
		if r.peek(k, ",") {
			k++
		}
	}
	k++
	if k < len(r.toks) {
		return r.syntaxErrorAt(k)
	}
	return nil
}

// referencing reads REFERENCING's transition tables from k (after the
// word), returning the index after them.
func (r *rewriter) referencing(ts *TriggerStatement, k int) (int, error) {
	for n := 0; ; n++ {
		if !r.peekAny(k, "old", "new") {
			if n == 0 {
				return 0, r.syntaxErrorAt(k)
			}
			return k, nil
		}
		old := r.peek(k, "old")
		switch {
		case r.peek(k+1, "table"):
		case r.peek(k+1, "row"):
			return 0, pgerr.New(pgerr.FeatureNotSupported, "ROW variable naming in the REFERENCING clause is not supported").
				WithHint("Use OLD TABLE or NEW TABLE for naming transition tables.").WithPosition(r.pos(k))
		default:
			return 0, r.syntaxErrorAt(k + 1)
		}
		k += 2
		if r.peek(k, "as") {
			k++
		}
		name, err := r.name(k)
		if err != nil {
			return 0, err
		}
		ts.Referencing = append(ts.Referencing, TransitionTable{Old: old, Name: name})
		k++
	}
}

// constraintTriggerOptions reads a constraint trigger's FROM table and its
// DEFERRABLE / INITIALLY options from k.
func (r *rewriter) constraintTriggerOptions(ts *TriggerStatement, k int) (int, error) {
	var err error
	if r.peek(k, "from") {
		if ts.ConstrTable, k, err = r.relationName(k + 1); err != nil {
			return 0, err
		}
	}
	notDeferrable := -1
	for {
		switch {
		case r.peek(k, "deferrable"):
			ts.Deferrable, k = true, k+1
		case r.peek(k, "not") && r.peek(k+1, "deferrable"):
			notDeferrable, k = k, k+2
		case r.peek(k, "initially") && r.peek(k+1, "deferred"):
			if notDeferrable >= 0 {
				return 0, pgerr.New(pgerr.SyntaxError, "constraint declared INITIALLY DEFERRED must be DEFERRABLE").WithPosition(r.pos(notDeferrable))
			}
			ts.InitiallyDeferred, ts.Deferrable, k = true, true, k+2
		case r.peek(k, "initially") && r.peek(k+1, "immediate"):
			k += 2
		default:
			if notDeferrable >= 0 && ts.Deferrable {
				return 0, pgerr.New(pgerr.SyntaxError, "conflicting constraint properties").WithPosition(r.pos(notDeferrable))
			}
			return k, nil
		}
	}
}
