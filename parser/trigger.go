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
	// When is WHEN's condition as written.
	When string
	// Function and Args are EXECUTE FUNCTION's.
	Function string
	Args     []string
	// MissingOK and Cascade are DROP's; NewName RENAME's; Enable ALTER
	// TABLE's.
	MissingOK bool
	Cascade   bool
	NewName   string
	Enable    bool
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
	case r.peek(0, "create") && (r.peek(1, "constraint") || r.peek(1, "or") && r.peek(2, "replace") && r.peek(3, "constraint")):
		if r.peekAny(2, "trigger") || r.peek(4, "trigger") {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "constraint triggers are not supported").WithPosition(r.pos(0))
		}
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
		if r.peek(k, "only") {
			k++
		}
		table, next, err := r.relationName(k)
		if err != nil || !(r.peek(next, "enable") || r.peek(next, "disable")) || !r.peek(next+1, "trigger") {
			return nil, nil
		}
		ts := &TriggerStatement{Action: TriggerEnable, Table: table, Enable: r.peek(next, "enable")}
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
	case r.peek(k, "before"), r.peek(k, "after"):
		ts.Timing, k = strings.ToUpper(r.toks[k].val), k+1
	case r.peek(k, "instead") && r.peek(k+1, "of"):
		return pgerr.New(pgerr.FeatureNotSupported, "INSTEAD OF triggers are not supported").WithPosition(r.pos(k))
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
	if r.peek(k, "referencing") {
		return pgerr.New(pgerr.FeatureNotSupported, "transition tables (REFERENCING) are not supported").WithPosition(r.pos(k))
	}
	if r.peekAny(k, "from", "deferrable", "initially", "not") {
		return pgerr.New(pgerr.FeatureNotSupported, "constraint trigger options are not supported").WithPosition(r.pos(k))
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
		ts.When = r.sql[r.toks[k+2].start:r.toks[close-1].end]
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
