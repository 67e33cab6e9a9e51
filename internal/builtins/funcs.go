package builtins

import (
	"errors"
	"sort"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The registry's other kinds of function: aggregates and window functions,
// which the planner types and the executor computes by name, and the few
// functions the planner binds itself (COALESCE, UNNEST ...). Each lists
// its overloads as pg_proc lists them (Signature), so pg_proc is built from
// this registry alone.

// Kind is what a function is, as pg_proc.prokind says.
type Kind byte

// Function kinds.
const (
	// KindFunction is a scalar (or set-returning) function.
	KindFunction Kind = 'f'
	// KindAggregate is an aggregate (also usable with OVER).
	KindAggregate Kind = 'a'
	// KindWindow is a window function proper.
	KindWindow Kind = 'w'
)

// Pseudo is a polymorphic pseudo-type a parameter or result is declared
// with in pg_proc; its value is the pseudo-type's OID.
type Pseudo uint32

// The pseudo-types of the registry's signatures.
const (
	AnyType       Pseudo = 2276 // "any"
	AnyArray      Pseudo = 2277
	AnyElement    Pseudo = 2283
	AnyNonArray   Pseudo = 2776
	AnyCompatible Pseudo = 5077
	// AnyCompatibleArray and AnyCompatibleNonArray are anycompatible's
	// array and non-array forms (array_append, array_fill ...).
	AnyCompatibleArray    Pseudo = 5078
	AnyCompatibleNonArray Pseudo = 5079
	Record                Pseudo = 2249
)

// Pseudos lists the pseudo-types zproxy's functions may be declared with:
// the polymorphic types over the values zproxy holds, and record. The
// others of PostgreSQL (cstring, internal, trigger, anyrange ...)
// stand for values zproxy has none of.
func Pseudos() []Pseudo {
	return []Pseudo{AnyType, AnyArray, AnyElement, AnyNonArray, AnyCompatible, AnyCompatibleArray, AnyCompatibleNonArray, AnyEnum, AnyRange, AnyMultirange, Record}
}

// ErrNoOverload is what a Func's Type returns when no overload takes the
// arguments: the caller reports 42883 with the argument types it has.
var ErrNoOverload = errors.New("no overload matches the arguments")

// Call is the call a Func's Type types.
type Call struct {
	// Args are the argument types (for an ordered-set aggregate: the direct
	// arguments, then the sorted one).
	Args []sqltypes.Type
	// Common is the planner's common type of two values of one result
	// (UNION's rules); ctx names the construct in its error.
	Common func(a, b sqltypes.Type, ctx string) (sqltypes.Type, error)
}

// Func is an aggregate or window function: its overloads as pg_proc lists
// them and how a call of it is typed.
type Func struct {
	Name string
	Kind Kind
	// Overloads are the signatures pg_proc lists (Volatility, CalledOnNull
	// and Doc per overload; Eval unused).
	Overloads []Overload
	// Type is the result type of a call, ErrNoOverload or the error
	// PostgreSQL reports for it.
	Type func(c *Call) (sqltypes.Type, error)
	// OrderedSet: called f(direct args) WITHIN GROUP (ORDER BY x), with
	// DirectArgs direct arguments.
	OrderedSet bool
	DirectArgs int
	// Hypothetical: an ordered-set aggregate whose direct arguments are a
	// hypothetical row, one per sort key (rank(a, b) WITHIN GROUP (ORDER
	// BY x, y)), each taking the common type of itself and its key.
	Hypothetical bool
}

// IntParam reports whether argument i is declared integer in some
// overload (an offset, a bucket count), so an untyped one takes that type.
func (f *Func) IntParam(i int) bool {
	for _, o := range f.Overloads {
		if i < len(o.Params) && !o.Params[i].Any && o.Params[i].Type.ID == sqltypes.Int4 {
			return true
		}
	}
	return false
}

var (
	aggregates = map[string]*Func{}
	windows    = map[string]*Func{}
	// plannerBound are functions the planner binds itself, listed here for
	// pg_proc only (never resolved through Resolve).
	plannerBound = map[string][]Overload{}
)

// RegisterAggregate adds an aggregate; called from init functions.
func RegisterAggregate(f *Func) { f.Kind = KindAggregate; aggregates[f.Name] = f }

// RegisterWindow adds a window function; called from init functions.
func RegisterWindow(f *Func) { f.Kind = KindWindow; windows[f.Name] = f }

// RegisterPlannerBound lists a function the planner binds by itself.
func RegisterPlannerBound(name string, ovs ...Overload) {
	plannerBound[name] = append(plannerBound[name], ovs...)
}

// LookupAggregate returns the aggregate of that name.
func LookupAggregate(name string) (*Func, bool) { f, ok := aggregates[name]; return f, ok }

// TextOnly reports whether f's argument i is a string that only text
// parameters take: some overload declares text there and none declares
// char(n) or a polymorphic type, so a char(n) argument reaches f through
// bpchar's implicit cast to text (string_agg), its trailing blanks gone.
func (f *Func) TextOnly(i int) bool {
	text := false
	for _, o := range f.Overloads {
		if i >= len(o.Params) {
			continue
		}
		switch p := o.Params[i]; {
		case p.Any || p.Type.ID == sqltypes.BPChar:
			return false
		case p.Type.ID == sqltypes.Text:
			text = true
		}
	}
	return text
}

// LookupWindow returns the window function of that name.
func LookupWindow(name string) (*Func, bool) { f, ok := windows[name]; return f, ok }

// IsAggregate reports whether name is an aggregate.
func IsAggregate(name string) bool { _, ok := aggregates[name]; return ok }

// IsWindow reports whether name is a window function proper.
func IsWindow(name string) bool { _, ok := windows[name]; return ok }

// Aggregates lists the aggregates, sorted by name.
func Aggregates() []*Func { return sortedFuncs(aggregates) }

// Windows lists the window functions, sorted by name.
func Windows() []*Func { return sortedFuncs(windows) }

func sortedFuncs(m map[string]*Func) []*Func {
	out := make([]*Func, 0, len(m))
	for _, f := range m {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Proc is one overload of any kind as pg_proc lists it.
type Proc struct {
	Name string
	Kind Kind
	*Overload
}

// Procs lists every overload of every function of the registry (scalar,
// set-returning, planner-bound, aggregate and window), by name; internal
// functions (zp_*) are left out.
func Procs() []Proc {
	var out []Proc
	add := func(name string, k Kind, ovs []Overload) {
		if len(name) > 3 && name[:3] == "zp_" {
			return
		}
		for i := range ovs {
			out = append(out, Proc{Name: name, Kind: k, Overload: &ovs[i]})
		}
	}
	for _, n := range Names() {
		add(n, KindFunction, registry[n])
	}
	names := make([]string, 0, len(plannerBound))
	for n := range plannerBound {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		add(n, KindFunction, plannerBound[n])
	}
	for _, f := range Aggregates() {
		add(f.Name, KindAggregate, f.Overloads)
	}
	for _, f := range Windows() {
		add(f.Name, KindWindow, f.Overloads)
	}
	return out
}

// OID is the type OID pg_proc lists for the parameter: its pseudo-type's,
// anyelement for any other Any, else its type's.
func (p Param) OID() uint32 {
	switch {
	case p.Pseudo != 0:
		return uint32(p.Pseudo)
	case p.Any:
		return uint32(AnyElement)
	}
	return p.Type.OID()
}

// ReturnsSet reports whether the overload is set-returning
// (pg_proc.proretset).
func (o *Overload) ReturnsSet() bool { return o.Set != nil || o.Retset }

// Signature is the overload as pg_proc lists it: argument type OIDs and
// result type OID.
func (o *Overload) Signature() (args []uint32, ret uint32) {
	types := make([]sqltypes.Type, len(o.Params))
	for i, p := range o.Params {
		if o.Variadic && i == len(o.Params)-1 && !p.Any {
			// A VARIADIC parameter of a type is declared as its array
			// (json_extract_path(json, VARIADIC text[])); "any" stays "any".
			args = append(args, sqltypes.ArrayOf(p.Type).OID())
			types[i] = p.Type
			continue
		}
		args = append(args, p.OID())
		types[i] = p.Type
		if p.Any {
			types[i] = sqltypes.TypeText
		}
	}
	ret = uint32(o.ResultPseudo)
	if ret == 0 {
		ret = uint32(AnyElement)
		if o.Result != nil {
			if r := o.Result(types); r.OID() != 0 {
				ret = r.OID()
			}
		}
	}
	return args, ret
}

// Sig builds an overload of an aggregate or window function as pg_proc
// lists it: ret and params are sqltypes.Type or Pseudo values. It is
// immutable and not strict (NULLs reach the function) unless changed.
func Sig(doc string, ret any, params ...any) Overload {
	o := Overload{CalledOnNull: true, Doc: doc}
	for _, p := range params {
		switch x := p.(type) {
		case sqltypes.Type:
			o.Params = append(o.Params, T(x))
		case Pseudo:
			o.Params = append(o.Params, Param{Any: true, Pseudo: x})
		default:
			panic("builtins.Sig: parameter neither a type nor a pseudo-type")
		}
	}
	switch x := ret.(type) {
	case sqltypes.Type:
		o.Result = Returns(x)
	case Pseudo:
		o.ResultPseudo = x
	default:
		panic("builtins.Sig: result neither a type nor a pseudo-type")
	}
	return o
}

// Strict marks the overload strict (a NULL argument gives NULL).
func (o Overload) Strict() Overload { o.CalledOnNull = false; return o }

// WithVolatility sets the overload's volatility.
func (o Overload) WithVolatility(v Volatility) Overload { o.Volatility = v; return o }

// sigs builds one overload per parameter type, of the result res(t).
func sigs(doc string, res func(sqltypes.Type) any, params ...sqltypes.Type) []Overload {
	out := make([]Overload, len(params))
	for i, p := range params {
		out[i] = Sig(doc, res(p), p)
	}
	return out
}
