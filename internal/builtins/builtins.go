// Package builtins is zproxy's registry of built-in functions: for each
// name, its overloads (argument types, result type, variadic, volatility,
// strictness, a one-line doc) and, for scalar and set-returning functions,
// their implementations over sqltypes values. Aggregates and window
// functions register here too (funcs.go: RegisterAggregate,
// RegisterWindow), with the signatures pg_proc lists and a Type that types
// a call; the executor computes them (executor/aggregate*.go,
// executor/window_funcs.go, found by name). pg_proc is built from this
// registry and nothing else (Procs).
//
// Adding an aggregate: register its Func from an init in a file here
// (agg_basic.go, agg_stat.go, agg_ordered.go: PostgreSQL's signatures via
// Sig, and Type), and its accumulator from an init in its executor file
// (registerAggregator); a window function likewise (window_funcs.go here,
// windowFuncs in executor/window_funcs.go). The pgcatalog and executor
// tests fail when the two disagree or pg_proc's row is not PostgreSQL 15's.
//
// The planner resolves a call by name and argument types (Resolve), casts
// the arguments to the chosen overload's parameter types, and evaluates the
// overload's Eval row by row. Families of functions register themselves
// from init functions in their own files (strings.go, math.go, time.go ...),
// so adding one touches nothing else. Functions whose typing depends on
// more than their argument types (COALESCE, CASE, GREATEST) stay in the
// planner, which binds them specially.
//
// Resolution follows PostgreSQL's rules where clients can tell: an exact
// match wins; otherwise the overload needing the fewest implicit casts
// (integers widen to bigint and double precision, varchar is text, date
// widens to timestamp); an untyped literal or parameter takes the type the
// overload wants. No match is 42883 with PostgreSQL's message and hint.
package builtins

import (
	"context"
	"net/netip"
	"slices"
	"sort"
	"time"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// Context is what a function sees besides its arguments.
type Context struct {
	// Now is the statement's timestamp (now(), current_timestamp).
	Now time.Time
	// Location is the session's time zone.
	Location *time.Location
	// Style is the session's output settings (DateStyle, IntervalStyle,
	// extra_float_digits, bytea_output), which values converted to text
	// are printed in; its Location is the session's TimeZone, as Location.
	Style sqltypes.Style
	// Settings reads a session setting (current_setting); nil when none.
	Settings func(name string) (string, bool)
	// ExactSettings reads an extension's setting as its C variable holds
	// it: a real in full where Settings prints six digits (pg_trgm's
	// thresholds); nil when none.
	ExactSettings func(name string) (string, bool)
	// Session describes the client (current_user, current_database ...).
	Session SessionInfo
	// Catalog is the schema and server state catalog functions read
	// (catalogenv.go).
	Catalog Catalog
	// Sequences serves nextval, currval, setval and lastval; nil where
	// sequences cannot be reached (then those functions fail).
	Sequences Sequences
	// LargeObjects serves the large-object functions (lo_open ...); nil
	// where they cannot be reached (then those functions fail).
	LargeObjects LargeObjects
	// Random is the session's generator for random() and setseed(); nil
	// draws from the process's generator and makes setseed a no-op.
	Random *Random
	// Routines runs user-defined functions (routines.go); nil where
	// they cannot be called. RoutineDepth is how many user routines'
	// bodies the call runs inside.
	Routines     Routines
	RoutineDepth int
	// Frame is the activation of the PL/pgSQL routine whose statement
	// makes the call (the session's), for the CONTEXT of what a routine
	// it calls raises; nil outside one. A Frame that is a
	// SettingScope hears of each setting the call changes first.
	Frame any
	// Transition are the transition tables' rows of the trigger whose
	// function runs (REFERENCING), by name; nil outside one.
	Transition map[string][][]sqltypes.Value
	// Notify, when set, hears the notices a function sends (Notice)
	// instead of the session: the binder's constant folding sets it to
	// learn that a call notices, and leaves that call to run with the
	// statement, which sends the notice each time as PostgreSQL does.
	Notify func(*pgerr.Error)
	// Cancel, when set, is the statement's context: done when the
	// statement is cancelled (by the client, statement_timeout or a lost
	// connection). Functions that wait (pg_sleep) stop then (Done), and
	// Err says why. The context itself rather than its Done channel and
	// Err method value: those were two allocations every statement, and
	// only a function that waits asks for the channel.
	Cancel context.Context
}

// Notice sends the client a notice or warning a function raises
// (PostgreSQL's elog(NOTICE)): to Notify when set, else to the session
// through the catalog view, when the call runs in one.
func (c *Context) Notice(n *pgerr.Error) {
	switch {
	case c == nil:
	case c.Notify != nil:
		c.Notify(n)
	default:
		if s, ok := c.Catalog.(interface{ Notice(*pgerr.Error) }); ok {
			s.Notice(n)
		}
	}
}

// Done is closed when the statement is cancelled; nil (never closed)
// without a Cancel context.
func (c *Context) Done() <-chan struct{} {
	if c == nil || c.Cancel == nil {
		return nil
	}
	return c.Cancel.Done()
}

// Err is why the statement was cancelled, once Done is closed: the
// context's error, or a user's cancel request without a context.
func (c *Context) Err() error {
	if c == nil || c.Cancel == nil {
		return pgerr.New(pgerr.QueryCanceled, "canceling statement due to user request")
	}
	return c.Cancel.Err()
}

// Sequences is the session's access to sequences: values come from the
// engine, currval and lastval are the session's own.
type Sequences interface {
	Nextval(name string) (int64, error)
	Currval(name string) (int64, error)
	Setval(name string, value int64, isCalled bool) (int64, error)
	Lastval() (int64, error)
	// State is the sequence read as a relation (SELECT last_value,
	// is_called FROM seq), which needs SELECT on it.
	State(name string) (last int64, called bool, err error)
}

// SessionInfo describes the session for the functions that report it.
type SessionInfo struct {
	// User is the current user (current_user): the session's role after
	// SET ROLE, a SECURITY DEFINER routine's owner inside it;
	// SessionUser is session_user (SET SESSION AUTHORIZATION's).
	User, SessionUser string
	// Definer is set inside a SECURITY DEFINER routine, where the role
	// and session_authorization parameters may not be set.
	Definer  bool
	Database string
	PID      int
	// ClientAddr and ServerAddr are the connection's two ends over TCP
	// (inet_client_addr, inet_server_port ...); zero over a Unix socket
	// or without a connection.
	ClientAddr, ServerAddr netip.AddrPort
	// Xact is the current transaction's number (txid_current), given by
	// Assign at the transaction's first ask and kept until it ends; nil
	// outside a session.
	Xact XactNumber
}

// XactNumber numbers a session's transactions for txid_current and
// pg_current_xact_id: zproxy's transactions have no ids of their own,
// so one is drawn from assign at a transaction's first ask and kept
// until it ends, which is what those functions promise.
type XactNumber interface {
	// Current is the transaction's number, drawn from assign if it has
	// none yet.
	Current(assign func() uint64) uint64
}

// Volatility says when a function's result may change, as PostgreSQL
// classifies functions.
type Volatility uint8

// Volatility classes.
const (
	// Immutable functions give the same result for the same arguments:
	// calls with constant arguments are folded when the statement is bound.
	Immutable Volatility = iota
	// Stable functions give the same result within one statement (now()):
	// they are evaluated once per statement and may bound a key range.
	Stable
	// Volatile functions may change at every call (random()).
	Volatile
)

// Param describes one parameter of an overload: a concrete type, or Any
// (any type; the argument keeps its own).
type Param struct {
	Type sqltypes.Type
	Any  bool
	// Pseudo, with Any, is the pseudo-type pg_proc declares (anyarray,
	// "any" ...; zero: anyelement).
	Pseudo Pseudo
}

// T is a parameter of type t.
func T(t sqltypes.Type) Param { return Param{Type: t} }

// AnyParam accepts any type.
var AnyParam = Param{Any: true}

// Overload is one signature of a function.
type Overload struct {
	Params []Param
	// Variadic: the last parameter may repeat (zero or more times when
	// MinArgs allows).
	Variadic bool
	MinArgs  int
	// Result is the result type for the resolved argument types.
	Result func(args []sqltypes.Type) sqltypes.Type
	// CalledOnNull: the function sees NULL arguments; otherwise (strict)
	// any NULL argument gives NULL without calling Eval.
	CalledOnNull bool
	Volatility   Volatility
	Eval         func(ctx *Context, args []sqltypes.Value) (sqltypes.Value, error)
	// Set makes the function set-returning (set.go); Eval is then unused.
	Set *SetFunc
	// Binary is an infix operator's implementation, called with its two
	// operands without building an argument slice (see RegisterOperator).
	Binary func(ctx *Context, a, b sqltypes.Value) (sqltypes.Value, error)
	// Typed, when set, replaces Eval: it builds the implementation for
	// the argument types of one call, for functions that treat an
	// argument by its type (concat and format print each one with its
	// type's output function).
	Typed func(args []sqltypes.Type) func(ctx *Context, args []sqltypes.Value) (sqltypes.Value, error)
	// KeepUnknown leaves an untyped argument of an Any parameter
	// unknown rather than text, for a function that reports its
	// argument's type (pg_collation_for: an untyped literal has no
	// collation).
	KeepUnknown bool
	// ResultPseudo is the result's pseudo-type in pg_proc (anyarray ...)
	// when Result cannot say it.
	ResultPseudo Pseudo
	// Retset marks a set-returning function the planner binds itself
	// (funcs.go), whose Set is nil.
	Retset bool
	// Doc says in one line what the overload computes.
	Doc string
	// Stores marks a function that reads and writes stored state through
	// the Context (the large-object functions): the session runs a
	// statement calling it in a transaction, so its writes commit or roll
	// back with the statement's.
	Stores bool
	// Routine is a user-defined function's catalog descriptor (nil for a
	// built-in): see routines.go. A caller's own extra overloads
	// (ResolveAmong) may carry what else they stand for: the planner's
	// operator implementation functions carry their operator.
	Routine any
	// Spread marks a variadic overload as a call written with VARIADIC
	// takes it (ResolveSpread): its last parameter is the variadic
	// parameter's array, passed whole.
	Spread bool
	// NullSpreadEmpty: a NULL array given with VARIADIC is no variadic
	// arguments at all (format), rather than a NULL result.
	NullSpreadEmpty bool
}

// Stores reports whether a built-in function of that name keeps stored
// state (Overload.Stores).
func Stores(name string) bool {
	for _, o := range registry[name] {
		if o.Stores {
			return true
		}
	}
	return false
}

// Returns is a Result that always gives t.
func Returns(t sqltypes.Type) func([]sqltypes.Type) sqltypes.Type {
	return func([]sqltypes.Type) sqltypes.Type { return t }
}

// SameAsArg is a Result of the i-th argument's type.
func SameAsArg(i int) func([]sqltypes.Type) sqltypes.Type {
	return func(a []sqltypes.Type) sqltypes.Type { return a[i] }
}

var registry = map[string][]Overload{}

// Register adds overloads of a function; called from init functions.
func Register(name string, ovs ...Overload) {
	registry[name] = append(registry[name], ovs...)
}

// Exists reports whether a function of that name is registered.
func Exists(name string) bool { _, ok := registry[name]; return ok }

// Names lists the registered functions, sorted (pg_proc).
func Names() []string {
	out := make([]string, 0, len(registry))
	for n := range registry {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Overloads returns a function's overloads (pg_proc).
func Overloads(name string) []Overload { return registry[name] }

// Resolved is the overload chosen for a call and the types its arguments
// must be cast to (Unknown: keep the argument's type).
type Resolved struct {
	*Overload
	ArgTypes []sqltypes.Type
	Result   sqltypes.Type
}

// Resolve chooses the overload of name for arguments of the given types
// (Unknown for untyped literals and parameters).
func Resolve(name string, args []sqltypes.Type) (Resolved, error) {
	ovs, ok := registry[name]
	if !ok {
		return Resolved{}, NoFunction(name, args)
	}
	return choose(ovs, args, func() error { return NoFunction(name, args) }, func() error {
		return pgerr.New(pgerr.AmbiguousFunction, "function %s(%s) is not unique", name, sqltypes.UnmodifiedNames(args...)).
			WithHint("Could not choose a best candidate function. You might need to add explicit type casts.")
	})
}

// choose picks the overload of ovs that suits args best: the fewest
// implicit conversions, then PostgreSQL's category preferences.
func choose(ovs []Overload, args []sqltypes.Type, none, ambiguous func() error) (Resolved, error) {
	best, bestCost := -1, 1<<30
	var tied []int
	for i := range ovs {
		cost, ok := matchCost(&ovs[i], args)
		if !ok {
			continue
		}
		switch {
		case cost < bestCost:
			best, bestCost, tied = i, cost, []int{i}
		case cost == bestCost:
			tied = append(tied, i)
		}
	}
	if best < 0 {
		return Resolved{}, none()
	}
	if len(tied) > 1 {
		// PostgreSQL's func_select_candidate keeps the candidates with
		// the most arguments of exactly their parameter's type (a
		// polymorphic parameter matches none): quote_literal(text) over
		// quote_literal(anyelement) for a text argument.
		most, kept := -1, tied[:0:0]
		for _, i := range tied {
			switch n := exactMatches(&ovs[i], args); {
			case n > most:
				most, kept = n, []int{i}
			case n == most:
				kept = append(kept, i)
			}
		}
		tied, best = kept, kept[0]
	}
	if len(tied) > 1 && unknownCategoryConflict(ovs, tied, args) {
		return Resolved{}, ambiguous()
	}
	if len(tied) > 1 {
		// PostgreSQL's tie-break for untyped literals: a string-category
		// parameter first, then the preferred type of a category (double
		// precision for numbers, timestamptz for times).
		bestPref := -1
		isAmbiguous := false
		for _, i := range tied {
			p := preference(&ovs[i], args)
			switch {
			case p > bestPref:
				best, bestPref, isAmbiguous = i, p, false
			case p == bestPref:
				isAmbiguous = true
			}
		}
		if isAmbiguous {
			return Resolved{}, ambiguous()
		}
	}
	return resolved(&ovs[best], args), nil
}

// unknownCategoryConflict reports a call of untyped literals only whose
// candidates (the indexes tied of ovs) want, at some argument, types of
// different categories none of which is the string category: there
// func_select_candidate cannot tell which category the literal is of,
// and the call is not unique (- '1' is numeric or interval negation;
// date_trunc('day', '2024-01-01') a timestamp's or an interval's). A
// call with a typed argument is left to the preference rule: PostgreSQL
// first assumes its untyped arguments are of that type.
func unknownCategoryConflict(ovs []Overload, tied []int, args []sqltypes.Type) bool {
	for _, a := range args {
		if a.ID != sqltypes.Unknown {
			return false
		}
	}
	for i := range args {
		var first byte
		conflict, str := false, false
		for _, k := range tied {
			p := paramAt(&ovs[k], i)
			if p.Any {
				continue
			}
			switch c := category(p.Type); {
			case c == 'S':
				str = true // a string parameter takes the literal
			case c == 0:
				// a category this rule does not know
			case first == 0:
				first = c
			case c != first:
				conflict = true
			}
		}
		if conflict && !str {
			return true
		}
	}
	return false
}

// category is t's pg_type.typcategory for the categories the unknown
// rule tells apart (0 for the others): S strings, N numbers, T
// intervals, D dates and times, B booleans, V bit strings, I network
// addresses, G geometric types, R ranges, A arrays.
func category(t sqltypes.Type) byte {
	switch t.Kind() {
	case sqltypes.KindText, sqltypes.KindBPChar, sqltypes.KindCitext:
		return 'S'
	case sqltypes.KindInt, sqltypes.KindFloat, sqltypes.KindNumeric, sqltypes.KindMoney:
		return 'N'
	case sqltypes.KindInterval:
		return 'T'
	case sqltypes.KindDate, sqltypes.KindTime, sqltypes.KindTimeTZ, sqltypes.KindTimestamp, sqltypes.KindTimestampTZ:
		return 'D'
	case sqltypes.KindBool:
		return 'B'
	case sqltypes.KindBit:
		return 'V'
	case sqltypes.KindInet:
		return 'I'
	case sqltypes.KindGeo:
		return 'G'
	case sqltypes.KindRange:
		return 'R'
	case sqltypes.KindArray:
		return 'A'
	}
	return 0
}

// exactMatches counts the typed arguments of a call that have exactly
// their parameter's (non-polymorphic) type.
func exactMatches(o *Overload, args []sqltypes.Type) int {
	n := 0
	for i, a := range args {
		if p := paramAt(o, i); !p.Any && a.ID != sqltypes.Unknown && a.ID == p.Type.ID {
			n++
		}
	}
	return n
}

// resolved is the call of o with args: the types the arguments are cast to
// and the result type.
func resolved(o *Overload, args []sqltypes.Type) Resolved {
	want := make([]sqltypes.Type, len(args))
	for i, a := range args {
		p := paramAt(o, i)
		if p.Any {
			want[i] = a
			if a.ID == sqltypes.Unknown && !o.KeepUnknown {
				want[i] = sqltypes.TypeText
				if p.Pseudo == AnyEnum {
					// An untyped argument takes the enum type the others have.
					want[i] = enumArg(o, args)
				}
				if p.Pseudo == AnyRange {
					want[i] = rangeArg(o, args)
				}
				if p.Pseudo == AnyMultirange {
					want[i] = multirangeArg(o, args)
				}
				if t, ok := polymorphicArg(o, args, p.Pseudo); ok {
					want[i] = t
				}
			}
		} else if isUserRangeParam(p.Type) && a.ID == p.Type.ID {
			want[i] = a // a user-defined range keeps its definition
		} else {
			want[i] = p.Type
		}
	}
	return Resolved{Overload: o, ArgTypes: want, Result: o.Result(want)}
}

// polymorphicArg is the type an untyped argument to a parameter of an
// array-or-element pseudo-type takes from the call's typed arguments of
// the same family, as PostgreSQL's enforce_generic_type_consistency
// deduces it: anyarray the array of the element type the others imply,
// anyelement (and anynonarray) that element type; anycompatible and its
// array and non-array forms likewise among themselves. ok false when no
// typed argument says (the argument stays text).
func polymorphicArg(o *Overload, args []sqltypes.Type, pseudo Pseudo) (sqltypes.Type, bool) {
	arrayP, elemPs := AnyArray, []Pseudo{0, AnyElement, AnyNonArray}
	if pseudo == AnyCompatible || pseudo == AnyCompatibleArray || pseudo == AnyCompatibleNonArray {
		arrayP, elemPs = AnyCompatibleArray, []Pseudo{AnyCompatible, AnyCompatibleNonArray}
	} else if pseudo != arrayP && !slices.Contains(elemPs, pseudo) {
		return sqltypes.Type{}, false
	}
	for i, a := range args {
		p := paramAt(o, i)
		if !p.Any || a.ID == sqltypes.Unknown {
			continue
		}
		var elem sqltypes.Type
		switch {
		case p.Pseudo == arrayP && a.ID == sqltypes.Array:
			elem = a.ElemType()
		case slices.Contains(elemPs, p.Pseudo):
			elem = a
		default:
			continue
		}
		if pseudo == arrayP {
			return sqltypes.ArrayOf(elem), true
		}
		return elem, true
	}
	if arrayP == AnyCompatibleArray {
		// Untyped arguments alone: anycompatible's common type of
		// unknowns is text (array_prepend('x', '{y}') is text[]).
		if pseudo == arrayP {
			return sqltypes.ArrayOf(sqltypes.TypeText), true
		}
		return sqltypes.TypeText, true
	}
	return sqltypes.Type{}, false
}

// enumArg is the type of the call's first enum argument to an anyenum
// parameter (Unknown when it has none: PostgreSQL cannot type the call).
func enumArg(o *Overload, args []sqltypes.Type) sqltypes.Type {
	for i, a := range args {
		if p := paramAt(o, i); p.Pseudo == AnyEnum && a.ID == sqltypes.Enum {
			return a
		}
	}
	return sqltypes.TypeUnknown
}

// preference scores how well an overload suits the untyped arguments of a
// call, by PostgreSQL's category rules.
func preference(o *Overload, args []sqltypes.Type) int {
	score := 0
	for i, a := range args {
		p := paramAt(o, i)
		if p.Any {
			continue
		}
		if a.ID != sqltypes.Unknown && a.ID != p.Type.ID {
			if preferred(p.Type) {
				score++ // a widening to the preferred type
			}
			continue
		}
		if a.ID != sqltypes.Unknown {
			continue
		}
		switch {
		case p.Type.ID == sqltypes.Text:
			score += 4
		case p.Type.Kind() == sqltypes.KindText:
			score += 3
		case preferred(p.Type):
			score += 2
		}
	}
	return score
}

// preferred reports whether t is its category's preferred type.
func preferred(t sqltypes.Type) bool {
	switch t.ID {
	case sqltypes.Text, sqltypes.Float8, sqltypes.TimestampTZ, sqltypes.Bool:
		return true
	}
	return false
}

// ParamAt is the parameter o's i-th argument goes to (a variadic
// overload's last parameter takes the rest).
func (o *Overload) ParamAt(i int) Param { return paramAt(o, i) }

func paramAt(o *Overload, i int) Param {
	if i < len(o.Params) {
		return o.Params[i]
	}
	return o.Params[len(o.Params)-1]
}

// matchCost is how many implicit conversions the arguments need for o, or
// false when they do not fit.
func matchCost(o *Overload, args []sqltypes.Type) (int, bool) {
	min := len(o.Params)
	if o.Variadic {
		min = o.MinArgs
	}
	if len(args) < min || !o.Variadic && len(args) > len(o.Params) {
		return 0, false
	}
	if !userRangesAgree(args) {
		return 0, false
	}
	cost := 0
	for i, a := range args {
		p := paramAt(o, i)
		switch {
		case p.Any && p.Pseudo == AnyEnum && a.ID != sqltypes.Enum && a.ID != sqltypes.Unknown:
			return 0, false // only an enum's values are anyenum
		case p.Any && (p.Pseudo == AnyRange || p.Pseudo == AnyMultirange):
			// Only a range's values are anyrange, all of one range type;
			// an untyped argument takes the others' type (and so for
			// anymultirange).
			r := rangeArg(o, args)
			if p.Pseudo == AnyMultirange {
				r = multirangeArg(o, args)
			}
			if r.ID == sqltypes.Unknown || a.ID != r.ID && a.ID != sqltypes.Unknown {
				return 0, false
			}
			if a.ID == sqltypes.Unknown {
				cost++
			}
		case p.Any, a == p.Type:
		case isUserRangeParam(p.Type) && a.ID == p.Type.ID:
			// A user-defined range's operand: its type exactly.
		case a.ID == sqltypes.Unknown:
			cost++ // an untyped literal takes the parameter's type
		case a.ID == p.Type.ID:
			cost++ // same type, other modifier (varchar(n) → varchar)
		case ImplicitCast(a, p.Type):
			cost += 2
		default:
			return 0, false
		}
	}
	return cost, true
}

// ImplicitCast reports whether PostgreSQL converts from to to without an
// explicit cast when choosing a function.
func ImplicitCast(from, to sqltypes.Type) bool {
	switch {
	case from.ID == to.ID:
		return true
	case from.IsOIDLike() || to.IsOIDLike():
		return oidImplicitCast(from, to)
	case from.Kind() == sqltypes.KindInt && to.IsNumeric():
		return intWidth(from) <= intWidth(to)
	case from.Kind() == sqltypes.KindFloat && to.ID == sqltypes.Float8:
		return true
	case from.ID == sqltypes.Numeric && to.Kind() == sqltypes.KindFloat:
		return true
	case from.ID == sqltypes.Citext:
		// The citext extension's implicit casts: to text and varchar.
		return to.ID == sqltypes.Text || to.ID == sqltypes.Varchar
	case to.ID == sqltypes.Citext, from.ID == sqltypes.Hstore, to.ID == sqltypes.Hstore:
		return false
	case from.Kind() == sqltypes.KindBit || to.Kind() == sqltypes.KindBit:
		return from.Kind() == to.Kind() // bit and bit varying, both ways
	case from.ID == sqltypes.Money || to.ID == sqltypes.Money, from.ID == sqltypes.ACLItem || to.ID == sqltypes.ACLItem:
		return false
	case from.Kind() == sqltypes.KindGeometry || to.Kind() == sqltypes.KindGeometry:
		// PostGIS's implicit casts: geometry to geography (so that
		// ST_DWithin(geog, ST_MakePoint(...), 1000) is geography's), and
		// bytea to either.
		return from.ID == sqltypes.Geometry && to.ID == sqltypes.Geography ||
			from.ID == sqltypes.Bytea && (to.ID == sqltypes.Geometry || to.ID == sqltypes.Geography) ||
			from.ID == sqltypes.Box2D && to.ID == sqltypes.Geometry ||
			from.ID == sqltypes.Geometry && to.ID == sqltypes.Box2D
	case isNetType(from) || isNetType(to):
		// pg_cast's implicit casts among the network types: cidr to
		// inet (binary-coercible) and macaddr to macaddr8 and back.
		return from.ID == sqltypes.Cidr && to.ID == sqltypes.Inet ||
			from.ID == sqltypes.MacAddr && to.ID == sqltypes.MacAddr8 ||
			from.ID == sqltypes.MacAddr8 && to.ID == sqltypes.MacAddr
	case from.IsTextual() && to.Kind() == sqltypes.KindText:
		return true // char(n) too, losing its padding
	case (from.ID == sqltypes.Name || from.ID == sqltypes.Char) && to.ID == sqltypes.Text:
		return true // pg_cast: name and "char" to text are implicit
	case from.ID == sqltypes.Date && (to.ID == sqltypes.Timestamp || to.ID == sqltypes.TimestampTZ):
		return true
	case from.ID == sqltypes.Timestamp && to.ID == sqltypes.TimestampTZ:
		return true
	case from.ID == sqltypes.Time && (to.ID == sqltypes.Interval || to.ID == sqltypes.TimeTZ):
		return true
	}
	return false
}

// oidImplicitCast is pg_cast's implicit casts to and from oid and its
// reg* aliases (which share the integers' kind but not their casts):
// the integers and oid to any of them, each of them to oid, regproc and
// regprocedure (and regoper and regoperator) to each other, and text and
// varchar to regclass, by which nextval('s'::text) reaches
// nextval(regclass). A reg* type to an integer is an assignment cast
// only, and one reg* type to another no cast at all.
func oidImplicitCast(from, to sqltypes.Type) bool {
	switch {
	case to.ID == sqltypes.Oid:
		return from.IsReg() || from.Kind() == sqltypes.KindInt && !from.IsOIDLike() && intWidth(from) <= 8
	case !to.IsReg():
		return false
	case from.ID == sqltypes.Oid:
		return true
	case from.IsReg():
		procs := func(t sqltypes.Type) bool { return t.ID == sqltypes.RegProc || t.ID == sqltypes.RegProcedure }
		opers := func(t sqltypes.Type) bool { return t.ID == sqltypes.RegOper || t.ID == sqltypes.RegOperator }
		return procs(from) && procs(to) || opers(from) && opers(to)
	case from.Kind() == sqltypes.KindInt:
		return intWidth(from) <= 8
	}
	return to.ID == sqltypes.RegClass && (from.ID == sqltypes.Text || from.ID == sqltypes.Varchar)
}

// isNetType reports whether t is one of the network address types.
func isNetType(t sqltypes.Type) bool {
	k := t.Kind()
	return k == sqltypes.KindInet || k == sqltypes.KindMacAddr
}

func intWidth(t sqltypes.Type) int {
	switch t.ID {
	case sqltypes.Int2:
		return 2
	case sqltypes.Int4:
		return 4
	case sqltypes.Int8:
		return 8
	}
	return 16 // floats take any integer
}

// NoFunction is PostgreSQL's 42883 for a call of name with arguments of
// types args that no function matches, the types named as
// func_signature_string names them (without their modifiers).
func NoFunction(name string, args []sqltypes.Type) *pgerr.Error {
	return NoFunctionSignature(name, sqltypes.UnmodifiedNames(args...))
}

// NoFunctionSignature is NoFunction for a call whose argument list is
// already written out, as func_signature_string writes it (a named
// argument as "name => type").
func NoFunctionSignature(name, args string) *pgerr.Error {
	return pgerr.New(pgerr.UndefinedFunction, "function %s(%s) does not exist", name, args).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
}

// SettingScope is a Frame whose rollbacks must undo the settings a call
// changes (a PL/pgSQL activation inside an exception block): functions
// that change a setting (set_config) call SettingChanging first, so that
// the block's failure puts the setting back, as PostgreSQL's
// subtransaction abort does.
type SettingScope interface {
	SettingChanging() error
}
