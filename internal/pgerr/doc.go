// Package pgerr carries PostgreSQL SQLSTATE codes on Go errors.
//
// Every layer of zproxy (parser, planner, optimizer, executor, kv, wire)
// reports failures a client can act on as *Error values with a SQLSTATE code.
// A code is a Code, one of this package's variables: codes_gen.go has every
// SQLSTATE of PostgreSQL 15, named after its ERRCODE_ macro without the
// class abbreviation PostgreSQL's condition names leave out, generated from
// the errcodes.h PostgreSQL installs (gen/main.go; TestCodesGenUpToDate
// checks it when PGERR_ERRCODES_H points at that file). A raw string is
// not a Code, and FromSQLState is the one conversion from text, for what
// lower layers report through SQLStater.
// They travel up unchanged, wrapped with %w where a layer adds context, and
// are turned into a protocol ErrorResponse in exactly one place: package wire.
// Errors are classified in one function, Classify (CodeOf gives the code
// alone), by type and code, never by matching message text; lower layers
// whose errors cannot be *Error values report their SQLSTATE through
// SQLStater.
//
// The package imports nothing from the rest of zproxy so every layer may use
// it without breaking the one-way flow wire → parser → planner → optimizer →
// executor → kv.
package pgerr
