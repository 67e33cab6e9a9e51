package ir

import (
	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
)

// Analyze gathers statistics of tables (ANALYZE, VACUUM ANALYZE).
type Analyze struct {
	Tables []*catalog.Table
	// Vacuum is set when the statement was spelled VACUUM (its tag): the
	// tables' key spans are compacted. Analyze gathers their statistics
	// (ANALYZE, VACUUM ANALYZE).
	Vacuum  bool
	Analyze bool
	Verbose bool
	// Warnings are sent before it runs: relations named that are not
	// tables, which PostgreSQL skips too.
	Warnings []*pgerr.Error
}

// Kind implements Statement.
func (a *Analyze) Kind() string {
	if a.Vacuum {
		return "vacuum"
	}
	return "analyze"
}

// Describe implements Statement.
func (*Analyze) Describe() Description { return Description{Class: ClassUtility} }
