package executor

import (
	"testing"

	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/ir"
)

// TestFuncsRegistry: every aggregate and window function of the registry
// of package builtins (which the planner binds) has an implementation
// here, and every implementation is of a registered function.
func TestFuncsRegistry(t *testing.T) {
	for _, f := range builtins.Aggregates() {
		if _, ok := aggregators[ir.AggFunc(f.Name)]; !ok {
			t.Errorf("aggregate %s has no accumulator", f.Name)
		}
	}
	for name := range aggregators {
		switch name {
		case ir.AggCountStar, "grouping": // syntax, not functions
			continue
		}
		if !builtins.IsAggregate(string(name)) {
			t.Errorf("accumulator of %s, which the registry does not have", name)
		}
	}
	for _, f := range builtins.Windows() {
		if _, ok := windowFuncs[f.Name]; !ok {
			t.Errorf("window function %s has no implementation", f.Name)
		}
	}
	for name := range windowFuncs {
		if !builtins.IsWindow(name) {
			t.Errorf("window function %s, which the registry does not have", name)
		}
	}
}
