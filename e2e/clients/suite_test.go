package clients

import (
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/e2e/harness"
)

// The drivers' own suites (pgxsuite_test.go, libpqsuite_test.go) share
// their expected-failures files' rules: a line is "package test<TAB>reason";
// a reason starting with flakyPrefix or postgresTooPrefix may pass or
// fail; any other listed test must fail (the list may only shrink); a
// failing test that is not listed fails the suite's test.

// postgresTooPrefix starts the reason of a listed test that fails on
// PostgreSQL as well (its environment lacks what the suite's own CI sets
// up: SSL roles and certificates, a server on port 5432).
const postgresTooPrefix = "postgres too: "

// checkSuite compares a suite's run on zproxy with its expected-failures
// file.
func checkSuite(t *testing.T, suite string, got map[string]*suiteOutcome, path string) {
	t.Helper()
	expected := readExpected(t, path)
	passed, failed := 0, 0
	var unexpected, fixed []string
	for k, r := range got {
		reason, listed := expected[k]
		switch r.action {
		case "pass":
			passed++
			if listed && !strings.HasPrefix(reason, flakyPrefix) && !strings.HasPrefix(reason, postgresTooPrefix) {
				fixed = append(fixed, k)
			}
		case "fail":
			failed++
			if !listed {
				unexpected = append(unexpected, k)
			}
		}
	}
	sort.Strings(unexpected)
	sort.Strings(fixed)
	for _, k := range unexpected {
		t.Errorf("%s fails and is not in %s:\n%s", k, path, got[k].output.String())
	}
	if len(fixed) > 0 {
		t.Errorf("these pass now: remove them from %s:\n%s", path, strings.Join(fixed, "\n"))
	}
	t.Logf("%s suite on zproxy: %d passed, %d failed (%d listed)", suite, passed, failed, len(expected))
}

// writeExpected rewrites a suite's expected-failures file from its runs
// on zproxy (got) and on PostgreSQL 15 (onPG): every test failing on
// zproxy, with the first error it printed, marked postgresTooPrefix when
// it does not pass on PostgreSQL either; flaky ones stay listed.
func writeExpected(t *testing.T, path, suite, how string, got, onPG map[string]*suiteOutcome) {
	t.Helper()
	old := readExpected(t, path)
	reasons := map[string]string{}
	for k, r := range got {
		if r.action != "fail" {
			continue
		}
		reasons[k] = reasonOf(r.output.String())
		if pg := onPG[k]; pg == nil || pg.action != "pass" {
			reasons[k] = postgresTooPrefix + reasons[k]
		}
	}
	for k, reason := range old {
		if strings.HasPrefix(reason, flakyPrefix) {
			reasons[k] = reason // a flaky test stays listed, whatever this run did
		}
	}
	var keys []string
	for k := range reasons {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString("# " + suite + "'s tests that fail on zproxy, with the first error each printed: written by\n")
	b.WriteString("# go test ./e2e/clients -run " + how + ".\n")
	b.WriteString("# \"" + strings.TrimSpace(postgresTooPrefix) + "\" fails on PostgreSQL 15 as well; the others may only go.\n")
	differ := 0
	for _, k := range keys {
		b.WriteString(k + "\t" + reasons[k] + "\n")
		if !strings.HasPrefix(reasons[k], postgresTooPrefix) && !strings.HasPrefix(reasons[k], flakyPrefix) {
			differ++
		}
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	passedPG := 0
	for _, r := range onPG {
		if r.action == "pass" {
			passedPG++
		}
	}
	t.Logf("%d of the %d tests that pass on PostgreSQL pass on zproxy", passedPG-differ, passedPG)
}

// startSuiteServer starts the zproxy a drivers' suite runs against: built
// without the race detector (the suites test the protocol and SQL, not
// zproxy's concurrency, and run in a minute so), over a fresh data
// directory; t's cleanup stops it.
func startSuiteServer(t *testing.T) *server {
	t.Helper()
	bin, cleanup, err := harness.BuildZproxy(false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cleanup)
	p, err := harness.Start(bin, "--listen", "127.0.0.1:0", "--metrics-listen", "", "--data-dir", t.TempDir(), "--shutdown-timeout", "20s")
	if err != nil {
		t.Fatal(err)
	}
	return watchServer(t, p)
}
