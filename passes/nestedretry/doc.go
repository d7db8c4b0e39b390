// Package nestedretry defines an Analyzer that reports retry sites whose
// attempts reach another retry site, so that the attempt counts multiply.
//
// # Analyzer nestedretry
//
// nestedretry: report retries that nest across layers
//
// Retries compose. A gateway that tries orders 3 times, where orders tries
// the ledger 3 times and the ledger tries the database 3 times, sends the
// database 3 × 3 × 3 = 27 calls per user request when it fails (4 per
// layer: 64) — exactly when the database can least afford them. Keep the
// retry in one layer only: the outermost one that has the request's
// deadline, which knows whether another attempt can still finish in time
// and stops when the caller gives up; the layers below it fail fast. With a retry budget at every hop instead, the product
// stays near 1.1 × 1.1 × 1.1 ≈ 1.33.
//
// The pass reports a retry site without a budget whose attempts reach,
// through direct calls and method calls whose callee is known (across the
// analyzed packages, through facts), another retry site that multiplies by
// two or more. The message gives the chain and its product, and names the
// layer that should keep the retry: the outermost function along the chain
// that has the request's deadline (a context.Context or *http.Request
// parameter, or a deadline it sets), or, when none has it, the site itself;
// related information points at the inner sites.
//
// Bad:
//
//	// gateway
//	for i := 0; i < 3; i++ {
//		if err = s.orders.Get(ctx, id); err == nil { // orders.Get retries 3 times
//			return nil
//		}
//		time.Sleep(backoff(i))
//	}
//
// Good: retry in one layer (here the gateway, which knows the deadline),
// call orders.Get once per attempt from a version that does not retry, or
// guard every layer's retries with a budget for its dependency.
//
// Not reported: sites guarded by a budget (each such layer adds at most
// its ratio); nesting whose inner multiplier is below two; attempts that
// reach code the analysis cannot follow (an interface method, a function
// value, recursion), which stay "at least" in the audit; retries in
// packages that are not analyzed (third-party code is known through the
// retry-library tables only); and sites that only configure a client
// (resty, gRPC service configs, a retryablehttp client no send of the
// package reaches), whose attempts happen where the client is used. A
// send through a retryablehttp client the package configures is a layer
// where it is made.
//
// No fix is offered: which layer keeps its retries is a design decision.
// retrylint audit lists every chain with its product.
package nestedretry
