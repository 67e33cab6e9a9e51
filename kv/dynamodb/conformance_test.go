package dynamodb

import (
	"testing"

	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/kv/kvtest"
)

// TestConformance runs the backend-neutral kv suite. Every subtest opens
// its own Store on one shared table, as separate proxies would; the suite
// keeps subtests apart with random partitions.
func TestConformance(t *testing.T) {
	requireDynamo(t)
	t.Parallel()
	table := uniqueTable(t)
	first := openTest(t, testOptions(table, endpoint))
	deleteTableOnCleanup(t, first)
	kvtest.RunWith(t, func(t *testing.T) kv.Store {
		return openTest(t, testOptions(table, endpoint))
	}, kvtest.Options{Parallel: true})
}
