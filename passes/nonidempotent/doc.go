// Package nonidempotent defines an Analyzer that reports retried POST and
// PATCH requests that carry no stable idempotency key.
//
// # Analyzer nonidempotent
//
// nonidempotent: report retried POSTs without an idempotency key
//
// TODO
package nonidempotent
