package session

import (
	"slices"
	"time"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/optimizer"
)

// The plan cache of a prepared statement, PostgreSQL's plancache.c for
// zproxy's plans (optimizer/generic.go says what a generic plan is). With
// plan_cache_mode auto, the first executions are planned with their values
// (custom plans); once customPlansBeforeGeneric of them in a row have taken
// the same paths and could serve as a generic plan, the last one does, and
// later executions only derive its scans from their values (key ranges, an
// inverted index's tokens, a Z-order box: optimizer/generic.go).
// force_generic_plan keeps the first plan that can serve; force_custom_plan
// plans every execution. A plan is kept for one schema snapshot (statistics
// included) and the planner settings it was built under.

// customPlansBeforeGeneric is how many custom plans PostgreSQL's plan cache
// makes before it considers a generic one.
const customPlansBeforeGeneric = 5

// planCache is one prepared statement's cached plan.
type planCache struct {
	snap     *catalog.Snapshot
	settings planSettings
	epoch    uint64 // Session.planEpoch
	// recent are the shapes of this snapshot's last custom plans, at
	// most customPlansBeforeGeneric.
	recent []planShape
	// generic serves the executions once chosen. settled: the statement
	// uses generic plans (after its first custom plans, or in an earlier
	// snapshot); the next plan that can serve becomes the generic plan.
	generic *optimizer.GenericPlan
	settled bool
	// genericParams are the values the generic plan was built with;
	// rebuildWith, after a schema change, those of the one before, to
	// build the new one with.
	genericParams, rebuildWith []sqltypes.Value
	// How the executions were planned, for pg_prepared_statements.
	genericPlans, customPlans int64
}

// planShape is what a custom plan says of a generic one: the plan as a
// generic plan (nil when it cannot serve as one), and whether its values
// made it read nothing (an empty range, a NULL key), which any plan does
// as cheaply.
type planShape struct {
	generic *optimizer.GenericPlan
	empty   bool
	params  []sqltypes.Value // the values it was built with
}

// settles reports whether a statement whose recent custom plans are
// these should use a generic plan, as PostgreSQL does when the generic
// plan's cost is no more than the custom plans' average: most of them took
// the paths of the last one that read something, and it can serve as a
// generic plan (plans that read nothing cost the same on any path). It
// returns that plan, nil when every recent plan read nothing (the next one
// that reads something serves).
func settles(recent []planShape) (bool, planShape) {
	last := -1
	for i := len(recent) - 1; i >= 0 && last < 0; i-- {
		if !recent[i].empty {
			last = i
		}
	}
	if last < 0 {
		return true, planShape{}
	}
	pick := recent[last]
	if pick.generic == nil {
		return false, planShape{}
	}
	same := 0
	for _, r := range recent {
		if r.empty || (r.generic != nil && optimizer.SameShape(r.generic.Plan(), pick.generic.Plan())) {
			same++
		}
	}
	return 2*same > len(recent), pick
}

// planSettings are the options that change which plan the optimizer
// builds; a cached plan is kept only under the same ones.
type planSettings struct {
	allowFullScan             bool
	disabled                  optimizer.PlanMethods
	maxPoints, zBudget, skipZ int
}

func settingsOf(o optimizer.Options) planSettings {
	return planSettings{allowFullScan: o.AllowFullScan, disabled: o.Disabled, maxPoints: o.MaxPoints, zBudget: o.ZBudget, skipZ: o.SkipScanBudget}
}

// plan is optimize through the statement's plan cache: the plan for these
// values, from the generic plan where it serves. As in PostgreSQL, a
// statement without parameters has nothing to customise: its first plan is
// its generic plan whatever plan_cache_mode says.
func (st *statement) plan(b ir.Statement, params []sqltypes.Value, opts optimizer.Options) (*optimizer.Plan, error) {
	return st.sess.planThrough(&st.cache, st.boundSnap, params, opts, func(vals []sqltypes.Value) (*optimizer.Plan, error) {
		return st.optimize(b, vals, opts)
	}, &st.planTime)
}

// planThrough plans through cache c, of a statement bound against snap:
// optimize makes a custom plan with the values given; planTime, when
// set, takes the time an instantiated generic plan took. A PL/pgSQL
// statement has a cache of its own too (plBound).
func (s *Session) planThrough(c *planCache, snap *catalog.Snapshot, params []sqltypes.Value, opts optimizer.Options,
	optimize func([]sqltypes.Value) (*optimizer.Plan, error), planTime *time.Duration) (*optimizer.Plan, error) {
	mode := s.derived().planCacheMode
	noParams := len(params) == 0
	custom := mode == "force_custom_plan" && !noParams
	if c.snap != snap || c.settings != settingsOf(opts) || c.epoch != s.planEpoch {
		// A schema or settings change, or DISCARD PLANS: plan anew. A statement that had
		// settled on a generic plan builds its new one at once, as
		// PostgreSQL's plan cache rebuilds an invalidated generic plan.
		*c = planCache{snap: snap, settings: settingsOf(opts), epoch: s.planEpoch, genericPlans: c.genericPlans, customPlans: c.customPlans,
			settled: c.settled, rebuildWith: c.genericParams}
	}
	if c.generic == nil && c.settled && c.rebuildWith != nil && !custom {
		// Rebuild the generic plan with the values it was built from
		// before: these values may not make a plan that can serve (a
		// NULL key reads nothing).
		if p, err := optimize(c.rebuildWith); err == nil {
			if g, ok := optimizer.Generic(p); ok && !optimizer.ReadsNothing(p) {
				c.generic, c.genericParams = g, c.rebuildWith
			}
		}
		c.rebuildWith = nil
	}
	if c.generic != nil && !custom {
		start := time.Now()
		if p, ok := c.generic.Instantiate(params, opts); ok {
			if planTime != nil {
				*planTime = time.Since(start)
			}
			c.genericPlans++
			return p, nil
		}
		// These values leave the generic plan's paths (a NULL where
		// the key wants a point): a custom plan for them.
	}
	p, err := optimize(params)
	if err != nil {
		return nil, err
	}
	if custom || c.generic != nil || snap == nil {
		c.customPlans++
		return p, nil
	}
	g, ok := optimizer.Generic(p)
	empty := optimizer.ReadsNothing(p)
	if ok && (noParams || (!empty && (mode == "force_generic_plan" || c.settled))) {
		// This plan is the generic plan from now on.
		c.generic, c.genericParams = g, slices.Clone(params)
		c.genericPlans++
		return p, nil
	}
	c.customPlans++
	shape := planShape{empty: empty}
	if ok {
		shape.generic, shape.params = g, slices.Clone(params)
	}
	if len(c.recent) == customPlansBeforeGeneric {
		c.recent = append(c.recent[:0], c.recent[1:]...)
	}
	c.recent = append(c.recent, shape)
	if c.customPlans >= customPlansBeforeGeneric && mode != "force_generic_plan" {
		if ok, pick := settles(c.recent); ok {
			c.settled, c.generic = true, pick.generic
			if pick.generic != nil {
				c.genericParams = pick.params
			}
		}
	}
	return p, nil
}

// PlanCounts reports how many executions used the generic plan and how
// many were planned with their values (pg_prepared_statements).
func (st *statement) PlanCounts() (generic, custom int64) {
	return st.cache.genericPlans, st.cache.customPlans
}
