package builtins

import (
	"slices"
	"testing"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// TestFuncSignaturesAgreeWithTypes: the aggregates' and window functions'
// Type gives, for every overload of concrete parameter types, the result
// type the overload declares to pg_proc.
func TestFuncSignaturesAgreeWithTypes(t *testing.T) {
	common := func(a, b sqltypes.Type, _ string) (sqltypes.Type, error) { return a, nil }
	funcs := append(Aggregates(), Windows()...)
	if len(funcs) == 0 {
		t.Fatal("no aggregates or window functions registered")
	}
	for _, f := range funcs {
		if f.Type == nil || len(f.Overloads) == 0 {
			t.Errorf("%s: no Type or no overloads", f.Name)
			continue
		}
		for i := range f.Overloads {
			o := &f.Overloads[i]
			if o.Doc == "" {
				t.Errorf("%s: overload %d has no doc", f.Name, i)
			}
			if o.Result == nil {
				continue // a polymorphic result
			}
			args := make([]sqltypes.Type, len(o.Params))
			concrete := true
			for j, p := range o.Params {
				concrete = concrete && !p.Any
				args[j] = p.Type
			}
			if !concrete || f.Name == "count" && len(args) == 0 {
				continue // count(*) is syntax the planner types
			}
			got, err := f.Type(&Call{Args: args, Common: common})
			if want := o.Result(args); err != nil || got != want {
				t.Errorf("%s%v: typed %v (%v), pg_proc says %v", f.Name, args, got, err, want)
			}
		}
	}
}

// TestFuncKinds: names are unique across the kinds, so a call's name says
// what it is; but a hypothetical-set aggregate is named as the window
// function it mirrors, its syntax (WITHIN GROUP, not OVER) telling them
// apart, and an extension's aggregate may share its name with functions
// of other signatures (PostGIS's st_makeline), which the planner tells
// apart by the call's arguments (planner.plainCallArgs).
func TestFuncKinds(t *testing.T) {
	alsoFunction := map[string]bool{"st_makeline": true, "st_collect": true}
	for _, f := range Aggregates() {
		if IsWindow(f.Name) && !f.Hypothetical || Exists(f.Name) && !alsoFunction[f.Name] {
			t.Errorf("%s is an aggregate and also another kind of function", f.Name)
		}
		for _, a := range f.Overloads {
			for _, o := range Overloads(f.Name) {
				if slices.Equal(a.Params, o.Params) {
					t.Errorf("%s%v is both an aggregate and a function", f.Name, a.Params)
				}
			}
		}
		if f.Kind != KindAggregate {
			t.Errorf("%s: kind %c", f.Name, f.Kind)
		}
	}
	for _, f := range Windows() {
		if Exists(f.Name) {
			t.Errorf("%s is a window function and also a scalar one", f.Name)
		}
		if f.Kind != KindWindow {
			t.Errorf("%s: kind %c", f.Name, f.Kind)
		}
	}
}
