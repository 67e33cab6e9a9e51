package session

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestVarsWrittenOnlyByPutVar checks that putVar is the only code of the
// package that writes a session's settings map: a write elsewhere would
// not advance varsVersion, and statements would go on reading what
// derived() made of the settings before it.
func TestVarsWrittenOnlyByPutVar(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	isVars := func(e ast.Expr) bool {
		sel, ok := e.(*ast.SelectorExpr)
		return ok && sel.Sel.Name == "vars"
	}
	writesVars := func(e ast.Expr) bool {
		if ix, ok := e.(*ast.IndexExpr); ok {
			return isVars(ix.X)
		}
		return isVars(e)
	}
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if ok && fn.Name.Name == "putVar" {
				continue
			}
			ast.Inspect(decl, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.AssignStmt:
					for _, l := range x.Lhs {
						if writesVars(l) {
							t.Errorf("%s: the settings map is written other than by putVar", fset.Position(x.Pos()))
						}
					}
				case *ast.CallExpr:
					if id, ok := x.Fun.(*ast.Ident); ok && (id.Name == "delete" || id.Name == "clear") && len(x.Args) > 0 && isVars(x.Args[0]) {
						t.Errorf("%s: the settings map is written other than by putVar", fset.Position(x.Pos()))
					}
				}
				return true
			})
		}
	}
	if checked < 50 {
		t.Fatalf("checked %d files of the package, expected its sources", checked)
	}
}
