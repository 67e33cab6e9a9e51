package archtest

import (
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const module = "github.com/zproxy/zproxy/"

// allowed lists, for each package (or package tree, ending in "/"), the
// zproxy packages it may import, by the same prefix rule; internal/ is
// allowed everywhere and left out. The stages of one statement are
// wire → session → parser → planner → optimizer → executor → kv: session
// drives the stages below it and implements wire's interface, so it may
// import every stage; below session a stage imports only stages after it.
// The IR (package ir) is planner's output and the optimizer's and
// executor's input, so it sits between them; it and the executor read the
// parser's plain descriptions of ALTER TABLE actions and sequence options.
var allowed = map[string][]string{
	"wire":                nil,
	"session":             {"wire", "parser", "planner", "ir", "optimizer", "executor", "kv", "catalog", "advisor", "zorder"},
	"parser":              nil,
	"planner":             {"parser", "ir", "catalog", "zorder"},
	"planner/plannertest": {"planner", "parser", "ir", "catalog"},
	"ir":                  {"parser", "catalog"},
	"optimizer":           {"ir", "kv", "catalog", "zorder"},
	"executor":            {"executor/", "optimizer", "ir", "parser", "kv", "catalog", "zorder"},
	"executor/spill":      nil,
	"advisor":             {"optimizer", "kv", "catalog", "zorder"},
	"console":             {"zorder"},
	"catalog":             {"kv", "zorder"},
	"catalog/pgcatalog":   {"catalog"},
	"cluster":             {"kv"},
	"kv":                  nil,
	"kv/":                 {"kv"},
	"zorder":              nil,
	"internal/":           nil,
	"internal/builtins":   {"zorder"}, // the XZ2 code of a geometry's box (a gist index's key)
	"cmd/":                {""},       // the binary wires everything
	"e2e":                 {""},
	"e2e/":                {""},
	"bench/":              {""},
	"scripts/":            {""},
}

func rulesFor(pkg string) ([]string, bool) {
	if r, ok := allowed[pkg]; ok {
		return r, true
	}
	best := ""
	for k := range allowed {
		if strings.HasSuffix(k, "/") && strings.HasPrefix(pkg, k) && len(k) > len(best) {
			best = k
		}
	}
	r, ok := allowed[best]
	return r, ok && best != ""
}

func permitted(rules []string, imp string) bool {
	if strings.HasPrefix(imp, "internal/") {
		return true
	}
	for _, r := range rules {
		if r == "" || imp == r || strings.HasSuffix(r, "/") && strings.HasPrefix(imp, r) || strings.HasPrefix(imp, r+"/") {
			return true
		}
	}
	return false
}

// TestDependencyRule checks every package's imports (tests excluded)
// against allowed, and that every package has a rule.
func TestDependencyRule(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
			return filepath.SkipDir
		}
		bp, err := build.ImportDir(path, 0)
		if err != nil {
			return nil // no Go files, or only tests
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		rules, ok := rulesFor(rel)
		if !ok {
			t.Errorf("package %s has no dependency rule in allowed", rel)
			return nil
		}
		checked++
		for _, imp := range bp.Imports {
			if !strings.HasPrefix(imp, module) {
				continue
			}
			imp = strings.TrimPrefix(imp, module)
			if !permitted(rules, imp) {
				t.Errorf("%s imports %s, which ARCHITECTURE.md's dependency rule does not allow", rel, imp)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 20 {
		t.Fatalf("checked only %d packages", checked)
	}
	if _, err := os.Stat(filepath.Join(root, "ARCHITECTURE.md")); err != nil {
		t.Fatal(err)
	}
}
