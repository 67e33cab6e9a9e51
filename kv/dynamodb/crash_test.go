package dynamodb

import (
	"os"
	"testing"
	"time"

	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/kv/kvtest"
)

const crashTableEnv = "ZPROXY_DYNAMODB_CRASH_TABLE"

// crashOptions give crashed transactions a short timeout, so the next
// helper (or the checker) aborts a pending one quickly.
func crashOptions(table string) Options {
	opts := testOptions(table, endpoint)
	opts.TxnTimeout = time.Second
	return opts
}

// TestCrashHelper is the process TestCrash kills; it does nothing unless
// TestCrash started it.
func TestCrashHelper(t *testing.T) {
	table := os.Getenv(crashTableEnv)
	if table == "" || os.Getenv(kvtest.CrashHelperEnv) == "" {
		t.Skip("the helper process of TestCrash")
	}
	requireDynamo(t)
	kvtest.CrashWorkload(t, openTest(t, crashOptions(table)))
}

// TestCrash kills a proxy-like process running transactions of up to
// 400 writes (most of them larger than one TransactWriteItems) with
// SIGKILL, some during their commit, and checks from this process, as
// another proxy would, that each is wholly there or wholly absent and that
// every acknowledged one is there.
func TestCrash(t *testing.T) {
	requireDynamo(t)
	if testing.Short() {
		t.Skip("starts and kills processes")
	}
	table := uniqueTable(t)
	first := openTest(t, crashOptions(table))
	deleteTableOnCleanup(t, first)
	kvtest.RunCrash(t, kvtest.CrashOptions{
		Helper: "TestCrashHelper",
		Env:    []string{crashTableEnv + "=" + table, "DYNAMODB_ENDPOINT=" + endpoint},
		Rounds: 8,
		MaxOps: 400,
		Open:   func(t *testing.T) kv.Store { return openTest(t, crashOptions(table)) },
	})
}
