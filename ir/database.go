package ir

import "github.com/zproxy/zproxy/parser"

// Database is CREATE, DROP or ALTER DATABASE (parser.DatabaseStatement):
// the session checks its options and changes the store's registry of
// databases; nothing of it is the current database's schema.
type Database struct {
	Stmt *parser.DatabaseStatement
}

// Kind implements Statement.
func (*Database) Kind() string { return "database" }

// Describe implements Statement. The registry is the store's, not the
// session's database's, so it reads no snapshot of that database.
func (x *Database) Describe() Description {
	tag := "ALTER DATABASE"
	switch x.Stmt.Action {
	case "create":
		tag = "CREATE DATABASE"
	case "drop":
		tag = "DROP DATABASE"
	}
	return Description{Class: ClassDDL, Tag: tag, Writes: true, NoSnapshot: true}
}
