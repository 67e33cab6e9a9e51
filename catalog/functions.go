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

// User-defined functions and procedures. CREATE FUNCTION and CREATE
// PROCEDURE store a Function descriptor under funcPrefix and its OID
// (overloads share a name, never an OID, and OR REPLACE keeps the OID), in
// the catalog partition like every other descriptor: versioned, shared by
// every proxy over the store, and written through a transaction block's
// catalog so ROLLBACK undoes it.

const funcPrefix = "f/"

// FuncParam is one parameter of a function, or one column of its RETURNS
// TABLE (Mode 't'), as pg_proc lists them.
type FuncParam struct {
	Name string        `json:"name,omitempty"`
	Mode byte          `json:"mode"` // i, o, b (INOUT), v (VARIADIC), t (TABLE)
	Type sqltypes.Type `json:"type"`
	// Default is the DEFAULT expression as written.
	Default string `json:"default,omitempty"`
}

// IsInput reports whether the parameter is an argument of a call (IN,
// INOUT, VARIADIC).
func (p FuncParam) IsInput() bool { return p.Mode == 'i' || p.Mode == 'b' || p.Mode == 'v' }

// IsOutput reports whether the parameter is a column of the result (OUT,
// INOUT, TABLE).
func (p FuncParam) IsOutput() bool { return p.Mode == 'o' || p.Mode == 'b' || p.Mode == 't' }

// Function is a user-defined function or procedure.
type Function struct {
	Name  string `json:"name"`
	OID   uint32 `json:"oid"`
	Owner string `json:"owner,omitempty"`
	// Kind is pg_proc.prokind: 'f' for a function, 'p' for a procedure.
	Kind   byte        `json:"kind"`
	Params []FuncParam `json:"params,omitempty"`
	// Result is the result type (void for a procedure or a function
	// returning nothing, record for one with several output columns);
	// ReturnsSet marks SETOF and RETURNS TABLE.
	Result     sqltypes.Type `json:"result"`
	ReturnsSet bool          `json:"retset,omitempty"`
	// Trigger marks RETURNS trigger (Result is then void).
	Trigger bool `json:"trigger,omitempty"`
	// RowType names the table whose row type the function returns
	// (RETURNS [SETOF] table); RowColumns are that row's columns as they
	// were when the function was created.
	RowType    string      `json:"row_type,omitempty"`
	RowColumns []FuncParam `json:"row_columns,omitempty"`
	// Language is "sql" (or "plpgsql").
	Language string `json:"language"`
	// Body is the code (prosrc); Atomic marks a BEGIN ATOMIC body and
	// Return a RETURN expr one (Body is then SELECT expr), the SQL
	// standard's forms.
	Body   string `json:"body"`
	Atomic bool   `json:"atomic,omitempty"`
	Return bool   `json:"return,omitempty"`
	// Volatility is provolatile ('i', 's', 'v').
	Volatility byte `json:"volatility"`
	Strict     bool `json:"strict,omitempty"`
	Definer    bool `json:"definer,omitempty"`
	Leakproof  bool `json:"leakproof,omitempty"`
	// Parallel is proparallel ('s', 'r', 'u').
	Parallel byte    `json:"parallel"`
	Cost     float64 `json:"cost"`
	Rows     float64 `json:"rows,omitempty"`
	// Config are SET options, "name=value" as proconfig prints them.
	Config  []string `json:"config,omitempty"`
	Comment string   `json:"comment,omitempty"`
	// Revoked marks EXECUTE revoked from PUBLIC (PUBLIC holds it by
	// default); Grantees hold EXECUTE granted to them.
	PublicRevoked bool     `json:"public_revoked,omitempty"`
	Grantees      []string `json:"grantees,omitempty"`
	// Aggregate is an aggregate's definition (Kind 'a', aggregates.go).
	Aggregate *AggregateDef `json:"aggregate,omitempty"`
}

// InputTypes are the types of the function's call arguments, in order
// (its identity with its name).
func (f *Function) InputTypes() []sqltypes.Type {
	var out []sqltypes.Type
	for _, p := range f.Params {
		if p.IsInput() {
			out = append(out, p.Type)
		}
	}
	return out
}

// Inputs are the function's input parameters, in order.
func (f *Function) Inputs() []FuncParam {
	var out []FuncParam
	for _, p := range f.Params {
		if p.IsInput() {
			out = append(out, p)
		}
	}
	return out
}

// Outputs are the function's output parameters (OUT, INOUT, TABLE
// columns), in order.
func (f *Function) Outputs() []FuncParam {
	if f.RowType != "" {
		return f.RowColumns
	}
	var out []FuncParam
	for _, p := range f.Params {
		if p.IsOutput() {
			out = append(out, p)
		}
	}
	return out
}

// Variadic reports whether the last input parameter is VARIADIC.
func (f *Function) Variadic() bool {
	in := f.Inputs()
	return len(in) > 0 && in[len(in)-1].Mode == 'v'
}

// Defaults is how many trailing input parameters have defaults.
func (f *Function) Defaults() int {
	n := 0
	for _, p := range f.Inputs() {
		if p.Default != "" {
			n++
		} else {
			n = 0
		}
	}
	return n
}

// Procedure reports whether f is a procedure.
func (f *Function) Procedure() bool { return f.Kind == 'p' }

// Clone returns a copy of f for building a changed descriptor.
func (f *Function) Clone() *Function {
	c := *f
	c.Params = append([]FuncParam(nil), f.Params...)
	c.Config = append([]string(nil), f.Config...)
	c.Grantees = append([]string(nil), f.Grantees...)
	return &c
}

// CanExecute reports whether role may call f, given whether it owns f
// or is a superuser (ownerOrSuper) and the roles it is a member of
// (memberOf, itself included).
func (f *Function) CanExecute(ownerOrSuper bool, memberOf func(string) bool) bool {
	if ownerOrSuper || !f.PublicRevoked {
		return true
	}
	for _, g := range f.Grantees {
		if memberOf(g) {
			return true
		}
	}
	return false
}

// Functions returns the functions and procedures a name denotes (nil
// when none), in OID order: those stored under the key when name is one
// ("schema.f", or a bare name with no search path), else those of the
// name in each schema of the search path, where a function hides a later
// schema's of the same argument types, as PostgreSQL's
// FuncnameGetCandidates gathers them.
func (s *Snapshot) Functions(name string) []*Function {
	if !s.pathSet || strings.IndexByte(name, '.') >= 0 {
		return s.FunctionsByKey(name)
	}
	var out []*Function
	seen := map[string]bool{}
	for _, sc := range s.path {
		fs := s.FunctionsByKey(QualifiedKey(sc, name))
		added := map[string]bool{}
		for _, f := range fs {
			sig := f.inputSignature()
			if seen[sig] {
				continue
			}
			added[sig] = true
			out = append(out, f)
		}
		for sig := range added {
			seen[sig] = true
		}
	}
	return out
}

// FunctionsByKey returns the functions and procedures stored under key
// exactly, in OID order; "public.f" is public's key "f" (a call
// qualified by public, whatever the search path).
func (s *Snapshot) FunctionsByKey(key string) []*Function {
	key = strings.TrimPrefix(key, PublicSchema+".")
	if s.perm != nil && s.funcs == nil {
		return s.perm.FunctionsByKey(key)
	}
	return s.funcs[key]
}

// ResolveFunction returns the key of the first schema of the search path
// holding a function or procedure named name (name itself when it is a
// key, without a path, or when none has it).
func (s *Snapshot) ResolveFunction(name string) string {
	if !s.pathSet || strings.IndexByte(name, '.') >= 0 {
		return name
	}
	for _, sc := range s.path {
		if k := QualifiedKey(sc, name); len(s.FunctionsByKey(k)) > 0 {
			return k
		}
	}
	return name
}

// Description names the routine with its argument types, as PostgreSQL's
// object descriptions do: "f(integer,text)".
func (f *Function) Description() string {
	var b strings.Builder
	b.WriteString(f.Name)
	b.WriteByte('(')
	for i, t := range f.InputTypes() {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(t.String())
	}
	b.WriteByte(')')
	return b.String()
}

// inputSignature identifies f's input argument types (its identity for
// overloading).
func (f *Function) inputSignature() string {
	var b strings.Builder
	for _, p := range f.Params {
		if p.IsInput() {
			b.WriteString(strconv.FormatUint(uint64(p.Type.OID()), 10))
			b.WriteByte(',')
		}
	}
	return b.String()
}

// FunctionByOID returns the function of that OID.
func (s *Snapshot) FunctionByOID(oid uint32) (*Function, bool) {
	for _, f := range s.AllFunctions() {
		if f.OID == oid {
			return f, true
		}
	}
	return nil, false
}

// AllFunctions returns every function and procedure, by name then OID.
func (s *Snapshot) AllFunctions() []*Function {
	if s.perm != nil && s.funcs == nil {
		return s.perm.AllFunctions()
	}
	var out []*Function
	for _, fs := range s.funcs {
		out = append(out, fs...)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Name != out[j].Name {
			return out[i].Name < out[j].Name
		}
		return out[i].OID < out[j].OID
	})
	return out
}

// HasFunctions reports whether any user-defined function exists.
func (s *Snapshot) HasFunctions() bool {
	if s.perm != nil && s.funcs == nil {
		return s.perm.HasFunctions()
	}
	return len(s.funcs) > 0
}

func funcKey(oid uint32) string { return funcPrefix + strconv.FormatUint(uint64(oid), 10) }

func (c *Catalog) loadFunctions(ctx context.Context, types map[string]*UserType) (map[string][]*Function, error) {
	funcs := map[string][]*Function{}
	links := typesByOID(types)
	if err := c.scanDescriptors(ctx, funcPrefix, func(it kv.Item) error {
		var f Function
		if err := decodeDesc(it, &f); err != nil {
			return err
		}
		f.Result, _ = links.link(f.Result)
		if a := f.Aggregate; a != nil {
			a.State, _ = links.link(a.State)
			a.MState, _ = links.link(a.MState)
		}
		for i := range f.Params {
			f.Params[i].Type, _ = links.link(f.Params[i].Type)
		}
		funcs[f.Name] = append(funcs[f.Name], &f)
		return nil
	}); err != nil {
		return nil, fmt.Errorf("catalog: reading functions: %w", err)
	}
	for _, fs := range funcs {
		sort.Slice(fs, func(i, j int) bool { return fs[i].OID < fs[j].OID })
	}
	return funcs, nil
}

func (c *Catalog) funcOps(ch Change) ([]kv.Op, error) {
	var ops []kv.Op
	for _, f := range ch.PutFunctions {
		op, err := c.putDescriptor(funcKey(f.OID), f)
		if err != nil {
			return nil, err
		}
		ops = append(ops, op)
	}
	for _, oid := range ch.DeleteFunctions {
		ops = append(ops, kv.Op{Kind: kv.OpDelete, Key: kv.Key{Partition: c.partition, Sort: []byte(funcKey(oid))}})
	}
	return ops, nil
}
