// Package plannertest builds catalog snapshots for tests below the SQL
// level: DDL is parsed, bound and applied in memory as the executor's DDL
// would apply it, with no store and no session, so binder and optimizer
// tests can start from CREATE TABLE text.
package plannertest
