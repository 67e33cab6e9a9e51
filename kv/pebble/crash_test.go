package pebble

import (
	"os"
	"testing"

	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/kv/kvtest"
)

const crashDirEnv = "ZPROXY_PEBBLE_CRASH_DIR"

// TestCrashHelper is the process TestCrash kills; it does nothing unless
// TestCrash started it.
func TestCrashHelper(t *testing.T) {
	dir := os.Getenv(crashDirEnv)
	if dir == "" || os.Getenv(kvtest.CrashHelperEnv) == "" {
		t.Skip("the helper process of TestCrash")
	}
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	kvtest.CrashWorkload(t, s)
}

// TestCrash kills a process running large transactions on an on-disk store
// (SIGKILL, some during a commit), reopens the directory and checks that
// every transaction is wholly there or wholly absent, and that every
// acknowledged commit survived.
func TestCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills processes")
	}
	dir := t.TempDir()
	kvtest.RunCrash(t, kvtest.CrashOptions{
		Helper: "TestCrashHelper",
		Env:    []string{crashDirEnv + "=" + dir},
		Open: func(t *testing.T) kv.Store {
			s, err := Open(dir, Options{})
			if err != nil {
				t.Fatal(err)
			}
			return s
		},
	})
}
