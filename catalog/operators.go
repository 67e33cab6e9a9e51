package catalog

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
)

// User-defined operators (CREATE OPERATOR) and casts (CREATE CAST): a
// descriptor each, under operPrefix and castPrefix and its OID, in the
// catalog partition like functions: versioned, shared by every proxy over
// the store, and written through a block's catalog so ROLLBACK undoes
// them.

const (
	operPrefix = "o/"
	castPrefix = "c/"
)

// Operator is a user-defined operator, as pg_operator lists it.
type Operator struct {
	OID uint32 `json:"oid"`
	// Name is the operator's key: the bare operator in schema public,
	// "schema.op" in another (QualifiedKey; an operator's name has no
	// dot, so SplitName splits it back).
	Name  string `json:"name"`
	Owner string `json:"owner,omitempty"`
	// Kind is 'b' (infix) or 'l' (prefix; Left is then the zero type).
	Kind   byte          `json:"kind"`
	Left   sqltypes.Type `json:"left"`
	Right  sqltypes.Type `json:"right"`
	Result sqltypes.Type `json:"result"`
	// Func is the function that computes it; zero for a shell operator
	// (one a COMMUTATOR or NEGATOR named before it was created).
	Func FuncRef `json:"func,omitempty"`
	// Commutator and Negator are the OIDs of those operators (0: none).
	Commutator uint32 `json:"commutator,omitempty"`
	Negator    uint32 `json:"negator,omitempty"`
	// Restrict and Join name the selectivity estimators (kept for
	// pg_operator; zproxy's optimizer does not call them).
	Restrict string `json:"restrict,omitempty"`
	Join     string `json:"join,omitempty"`
	CanHash  bool   `json:"hashes,omitempty"`
	CanMerge bool   `json:"merges,omitempty"`
	Comment  string `json:"comment,omitempty"`
}

// Description names the operator with its operand types, as PostgreSQL's
// object descriptions do: "===(integer,integer)", "!!(NONE,integer)".
func (o *Operator) Description() string {
	left := "NONE"
	if o.Kind != 'l' {
		left = o.Left.String()
	}
	return o.Name + "(" + left + "," + o.Right.String() + ")"
}

// Cast is a user-defined cast, as pg_cast lists it.
type Cast struct {
	OID    uint32        `json:"oid"`
	Source sqltypes.Type `json:"source"`
	Target sqltypes.Type `json:"target"`
	// Func is the cast function (Method 'f'); zero for WITHOUT FUNCTION
	// (Method 'b') and WITH INOUT (Method 'i').
	Func   FuncRef `json:"func,omitempty"`
	Method byte    `json:"method"`
	// Context is 'e' (explicit only), 'a' (AS ASSIGNMENT) or 'i' (AS
	// IMPLICIT).
	Context byte   `json:"context"`
	Comment string `json:"comment,omitempty"`
}

// Shell reports whether the operator is a shell (not yet defined).
func (o *Operator) Shell() bool { return o.Func.IsZero() }

// Schema is the schema the operator lives in.
func (o *Operator) Schema() string { sc, _ := SplitName(o.Name); return sc }

// Bare is the operator's name within its schema (pg_operator.oprname).
func (o *Operator) Bare() string { _, n := SplitName(o.Name); return n }

// SameOperands reports whether o is of that kind and those operand types
// (its identity within its schema, with its name).
func (o *Operator) SameOperands(kind byte, left, right sqltypes.Type) bool {
	return o.Kind == kind && o.Right.OID() == right.OID() && (kind == 'l' || o.Left.OID() == left.OID())
}

// Operators returns the user-defined operators stored under the key name
// (nil when none), shells included, in OID order.
func (s *Snapshot) Operators(name string) []*Operator {
	var out []*Operator
	for _, o := range s.AllOperators() {
		if o.Name == name {
			out = append(out, o)
		}
	}
	return out
}

// VisibleOperators returns the operators an unqualified name op denotes,
// shells included: those of op in each schema of the search path (public
// alone without one), where an operator hides a later schema's of the
// same kind and operand types, as PostgreSQL's OpernameGetCandidates
// gathers them. A key ("app.op") denotes the operators stored under it.
func (s *Snapshot) VisibleOperators(op string) []*Operator {
	if !s.pathSet || strings.IndexByte(op, '.') >= 0 {
		return s.Operators(op)
	}
	var out []*Operator
	for _, sc := range s.path {
		if s.UsageDenied(sc) {
			continue
		}
	next:
		for _, o := range s.Operators(QualifiedKey(sc, op)) {
			for _, p := range out {
				if p.SameOperands(o.Kind, o.Left, o.Right) {
					continue next
				}
			}
			out = append(out, o)
		}
	}
	return out
}

// FindOperator is the operator an unqualified or qualified name and
// operand types denote (through the search path), if any.
func (s *Snapshot) FindOperator(name string, kind byte, left, right sqltypes.Type) *Operator {
	for _, o := range s.VisibleOperators(name) {
		if o.SameOperands(kind, left, right) {
			return o
		}
	}
	return nil
}

// OperatorVisible reports whether o is found by its unqualified name
// (pg_operator_is_visible).
func (s *Snapshot) OperatorVisible(o *Operator) bool {
	return s.FindOperator(o.Bare(), o.Kind, o.Left, o.Right) == o
}

// SchemaOperators returns the operators of a schema, shells included, in
// OID order.
func (s *Snapshot) SchemaOperators(schema string) []*Operator {
	var out []*Operator
	for _, o := range s.AllOperators() {
		if o.Schema() == schema {
			out = append(out, o)
		}
	}
	return out
}

// AllOperators returns every user-defined operator, in OID order.
func (s *Snapshot) AllOperators() []*Operator {
	if s.perm != nil {
		return s.perm.AllOperators()
	}
	return s.operators
}

// Casts returns every user-defined cast, in OID order.
func (s *Snapshot) Casts() []*Cast {
	if s.perm != nil {
		return s.perm.Casts()
	}
	return s.casts
}

// CastBetween returns the user-defined cast from source to target (by
// type OID), if any.
func (s *Snapshot) CastBetween(source, target sqltypes.Type) (*Cast, bool) {
	for _, c := range s.Casts() {
		if c.Source.OID() == source.OID() && c.Target.OID() == target.OID() {
			return c, true
		}
	}
	return nil, false
}

func operKey(oid uint32) string { return operPrefix + strconv.FormatUint(uint64(oid), 10) }
func castKey(oid uint32) string { return castPrefix + strconv.FormatUint(uint64(oid), 10) }

// loadOperators reads the operators and casts.
func (c *Catalog) loadOperators(ctx context.Context, types map[string]*UserType) ([]*Operator, []*Cast, error) {
	links := typesByOID(types)
	var ops []*Operator
	if err := c.scanDescriptors(ctx, operPrefix, func(it kv.Item) error {
		var o Operator
		if err := decodeDesc(it, &o); err != nil {
			return err
		}
		o.Left, _ = links.link(o.Left)
		o.Right, _ = links.link(o.Right)
		o.Result, _ = links.link(o.Result)
		ops = append(ops, &o)
		return nil
	}); err != nil {
		return nil, nil, fmt.Errorf("catalog: reading operators: %w", err)
	}
	var casts []*Cast
	if err := c.scanDescriptors(ctx, castPrefix, func(it kv.Item) error {
		var k Cast
		if err := decodeDesc(it, &k); err != nil {
			return err
		}
		k.Source, _ = links.link(k.Source)
		k.Target, _ = links.link(k.Target)
		casts = append(casts, &k)
		return nil
	}); err != nil {
		return nil, nil, fmt.Errorf("catalog: reading casts: %w", err)
	}
	sort.Slice(ops, func(i, j int) bool { return ops[i].OID < ops[j].OID })
	sort.Slice(casts, func(i, j int) bool { return casts[i].OID < casts[j].OID })
	return ops, casts, nil
}

// scanDescriptors calls fn with each descriptor item under prefix.
func (c *Catalog) scanDescriptors(ctx context.Context, prefix string, fn func(kv.Item) error) error {
	start := []byte(prefix)
	it := c.rw.Scan(ctx, kv.ScanRequest{Partition: c.partition, Start: start, End: kv.PrefixEnd(start), Consistent: true})
	defer it.Close()
	for it.Next() {
		if err := fn(it.Item()); err != nil {
			return err
		}
	}
	return it.Err()
}

func (c *Catalog) operatorOps(ch Change) ([]kv.Op, error) {
	var ops []kv.Op
	for _, o := range ch.PutOperators {
		op, err := c.putDescriptor(operKey(o.OID), o)
		if err != nil {
			return nil, err
		}
		ops = append(ops, op)
	}
	for _, oid := range ch.DeleteOperators {
		ops = append(ops, kv.Op{Kind: kv.OpDelete, Key: kv.Key{Partition: c.partition, Sort: []byte(operKey(oid))}})
	}
	for _, k := range ch.PutCasts {
		op, err := c.putDescriptor(castKey(k.OID), k)
		if err != nil {
			return nil, err
		}
		ops = append(ops, op)
	}
	for _, oid := range ch.DeleteCasts {
		ops = append(ops, kv.Op{Kind: kv.OpDelete, Key: kv.Key{Partition: c.partition, Sort: []byte(castKey(oid))}})
	}
	return ops, nil
}
