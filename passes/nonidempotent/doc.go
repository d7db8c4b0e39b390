// Package nonidempotent defines an Analyzer that reports retried POST and
// PATCH requests that carry no stable idempotency key.
//
// # Analyzer nonidempotent
//
// nonidempotent: report retried POSTs without an idempotency key
//
// A timeout after the server committed a purchase is no proof that nothing
// happened: retrying the POST can charge the customer twice. A server that
// supports idempotency keys recognises the retry by its key and answers it
// without applying it again — provided the key is the same on every
// attempt. A key generated anew on every attempt is no key at all. POST
// and PATCH are neither safe nor idempotent (RFC 9110, RFC 5789); PUT,
// DELETE, GET, HEAD and OPTIONS are idempotent by definition and are never
// reported.
//
// The pass reports a POST or PATCH request — the method a string constant
// in any case, http.MethodPost, http.MethodPatch, a constant that resolves
// to one, or a local variable assigned once, from such a constant, where
// it is declared (method := http.MethodPatch) and never changed after —
// built by http.NewRequest, http.NewRequestWithContext,
// retryablehttp.NewRequest or retryablehttp.NewRequestWithContext, or by a
// request-building wrapper of the user's code called with the method (a
// function that returns the request it builds with the method of one of
// its string parameters, c.NewRequest(ctx, method, path, body), and sets
// no idempotency key and no header it cannot name on it: a fact, so the
// wrapper may live in another package; the wrapper's call is the
// construction; a wrapper may also return a request holder, a struct type
// of the user's code with one request field, built as a literal around the
// request: return &ClientRequest{req: req, Header: req.Header}, nil; and
// a default for an empty method, if method == "" { method = "POST" },
// leaves the method the caller's; a wrapper may return an http.Request
// value, sent by its address, hc.Do(&req)), or built as a literal that
// sets its method, &http.Request{Method: http.MethodPost, ...}, or whose
// variable is given its method once after it (req := &http.Request{URL:
// u}; req.Method = method), or described by a
// request description (a struct type of the user's code with a method —
// the converter, a fact — that returns a request built with the method
// held in one of the receiver's string fields and carrying the
// receiver's http.Header fields, func (r *Request) toHTTP()
// (*retryablehttp.Request, error) with r.Method; a description is a
// request to the pass: its literal with the method field, or a builder
// returning one, &Request{Method: method}, is the construction, its
// http.Header fields its headers, and the converter's result the request
// itself, followed to its send), or sent by a function of the user's
// code that builds the request from its method parameter and retries it
// inside a retry site of its own, reading the method nowhere else (an
// operand of a format, an argument to a final ...any parameter as in
// log.Printf("retry %s %s", method, uri), names it and decides nothing)
// (executeMethod(ctx, "POST", metadata): the call builds and sends, and
// is where the diagnostic goes; a fact; a switch on the parameter whose
// case lists only the method and sends with the verb, switch method {
// case "POST": req.Post(endpoint) }, also in a function literal of the
// function, reads it to choose the send, and the POST there is the
// caller's), or through a retrying client, a
// send wrapper that resends or another such function, or that sends it
// once, so that a retry site around the call retries it (c.call(ctx,
// "POST", path, body); a fact too; a request it also returns, after
// sending it, (res, req, err), leaves it no builder), or sent by http.Post, http.PostForm, (*http.Client).Post
// and PostForm, the go-retryablehttp equivalents, or resty's Post, Patch
// and Execute, when the request is retried:
//   - sent inside a retry loop, or inside the operation function literal of
//     a retry-library call or of a retry helper of the user's code (the
//     shared retry-site analysis; helpers are known across packages through
//     its facts), whether the request is built there or before;
//   - or built and sent in a function of the package that a retry site's
//     attempt calls, directly or through up to two more functions of the
//     package: a loop's attempt and the calls it makes before the attempt
//     on every iteration, every call of a retried function literal, or an
//     operation passed as a function or method value. Static calls are
//     followed, and an interface method call when the interface is
//     declared in the package and exactly one type of the package
//     implements it; function values and other interface calls are not.
//     The diagnostic stays at the construction, with the retry site and
//     the attempt's call as related information, and gets no fix (a key
//     made before the retry cannot reach the request);
//   - or sent through a retrying client: a go-retryablehttp client (it
//     retries by default, RetryMax 4, unless RetryMax is set to 0 or every
//     value stored in it is a literal without RetryMax), an *http.Client
//     from a retryablehttp client's StandardClient or with a
//     retryablehttp.RoundTripper transport, or a resty client with
//     SetRetryCount(n), n > 0, in its own chain, on its variable, or on its
//     field anywhere in the package;
//   - or passed to a send wrapper of the user's code that resends its
//     request parameter whatever the method: it sends it inside a retry
//     site of its own, or every send of it goes through a retrying client
//     (made in the wrapper or held in a field); a fact, and a wrapper that
//     reads req.Method is taken to choose what it retries, but for a read
//     in a block that returns unsent or in the condition of an if that
//     only keeps books (if req.Method != http.MethodGet {
//     cache.Delete(key) }: no else, no send, nothing that leaves). A wrapper that
//     sends it once only where a boolean parameter is false (if !retry {
//     return c.plain.Do(req) }, then a retrying client) resends it when
//     a call passes true, or a flag of its own caller that is (a fact
//     too: do(req, retry), send(ctx, req, retry), then send(ctx, req,
//     true)). A method of a request holder that sends the holder's
//     request so is a send wrapper too (req.Do(ctx, v)). A wrapper that
//     is only called by a retry site's attempt does not make its other
//     callers' requests retried;
//
// and no idempotency-key header is set on it: Header.Set or Header.Add, an
// assignment to the Header map or of a Header literal, resty SetHeader or
// SetHeaders, or a call of a function of the user's code that sets the key
// on its request or header parameter (a fact, see below). The request is
// followed from construction to send through the local variables of its
// function, including copies made by WithContext, Clone and
// retryablehttp.FromRequest. A POST retried only on connection errors is
// reported too: the client cannot tell whether the request reached the
// server. The diagnostic is at the construction (for http.Post, at the
// sending call), with the retry site as related information.
//
// For resty the construction is the client's R() (or NewRequest) call, or
// the call of a wrapper of the user's code that returns a new request from
// its client's R() with no idempotency key and no header it cannot name
// (func (a *API) R() *resty.Request { return a.client.R() }: a fact that
// also says whether that client retries). The request is followed from
// there to its Post, Patch or Execute call.
//
// When the key is set, the pass reports it if it comes from a generator
// evaluated inside the retried code (including the functions of the
// package an attempt calls, as above): github.com/google/uuid (New,
// NewString, NewRandom, NewV7, ...), gofrs and satori uuid, hashicorp
// go-uuid, crypto/rand (Read, Text, Int), math/rand, oklog/ulid, rs/xid,
// segmentio/ksuid, nanoid, shortid, time.Now, and functions of the user's
// code that return such a value (a fact). The value is followed through
// local variables and through byte slices filled by rand.Read or
// io.ReadFull(rand.Reader, b). The diagnostic is at the generator call.
//
// Bad:
//
//	for attempt := 0; attempt < 3; attempt++ {
//		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
//		if err != nil {
//			return err
//		}
//		req.Header.Set("Idempotency-Key", uuid.NewString()) // a new key each time
//		if resp, err := client.Do(req); err == nil {
//			return resp.Body.Close()
//		}
//		time.Sleep(backoff(attempt))
//	}
//
// Good:
//
//	key := uuid.NewString() // one logical operation, one key
//	for attempt := 0; attempt < 3; attempt++ {
//		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
//		if err != nil {
//			return err
//		}
//		req.Header.Set("Idempotency-Key", key)
//		...
//	}
//
// Headers copied from a map — by a for-range, or the map itself set as
// the header map (req.Header = h, resty SetHeaders(h)) — set a key only
// where that map is given one: a map held in a struct field counts when
// some code of the package sets a key-header name, a constant, on that
// field (Set, Add, an index, a literal); a local map made in the function
// (make, a literal, a field, its Clone, or the result of a function of
// the package returning only such maps) and filled there only with
// constant names or from the range of such a map counts when one of them
// may hold a key header. Any such map without one sets no key. A local map
// may also be handed to a function of the user's code: what its fact says
// it does to that parameter decides (it sets a key, headers the pass
// cannot name, copies another map onto it, or nothing: then it only reads
// it). A function that copies one header-map parameter onto another
// (copyHeader(dst, src http.Header)) gives dst a key where src may hold
// one (a fact). A wrapper that carries a header-map parameter onto the
// request it builds or sends (request(ctx, method, uri, headers) copying
// headers onto it) is a builder or sender for a call whose map there may
// hold no key (nil, a literal without one, uploadHeaders() returning one,
// a local filled with other names) and for no other; a wrapper that hands
// its own parameter on carries it too (a fact).
//
// A request handed to a function value whose type is a named function
// type of the package (type RequestCallback func(*Request), called for
// every request) is judged by the functions the package makes of that
// type (function literals returned, passed, stored or converted as it):
// when there are some and none sets a key or a header the pass cannot
// name, the call sets none; the callbacks the package's callers supply
// are theirs, and so are the headers a function of the package that makes
// such a function sets for its caller (WithHeader(name, value),
// WithHeaders(h): judged by its calls in the package, a key where one of
// them names one). A header name returned by a function of the package,
// or by every implementation in the package of an interface of the
// package (an authentication source's Header(ctx) returning
// "Authorization" or a package constant), is judged by those returns; an
// implementation that embeds the interface runs another. A request, or
// a request holder, handed to a method of an interface declared in the
// package (opt.Apply(cfg): options applied to a request config) is
// judged the same way, by the package's implementations of that method:
// when there are some and none sets a key or a header the pass cannot
// name, the call sets none. An implementation that applies other values
// of the interface (a list of options, one option or another) adds
// nothing of its own; one that is a function type of the package of
// which the package makes no function (type PreOptionFunc func(*Config)
// error) runs only functions its callers make, which are theirs, as the
// options they pass are. A holder may be a local built as a literal
// around the request and returned by its address (cfg :=
// RequestConfig{Request: req}; ...; return &cfg, nil); a request or
// holder stored in a package variable escapes. A send wrapper that reads the request's method only in a
// block that returns without sending it (the method put in an error) does
// not choose what it retries.
//
// The method a wrapper (a builder or a function that builds and sends)
// is given may also be a string field of a struct parameter, read once
// and never set there: c.do(ctx, CallOptions{Method: "POST", Path: p}),
// the field's element of the literal passed, or of the literal a local
// variable is defined with when nothing else sets that field. The struct
// may be a local the wrapper applies its functional options to (for _,
// opt := range opts { opt(o) }, opts its final variadic parameter of
// func(*options), or of func(*options) error, an option that may fail
// and make the call return), read only as the method of the requests it
// builds (an upload on one branch, a plain request on another): the caller's method is what the last of its options
// that sets the field gives it, an option being a function literal that
// assigns the field or a call of a function of the package that returns
// one (WithMethod(http.MethodPost)); options handed on from a parameter
// (opts...) are not read, those of a local slice made from a literal of
// options and grown only by appends of options that leave the method
// alone are. A request
// handed, after every send of it, to a function of the user's code that
// hands it on to callbacks (hooks after the response) is still the
// function's, as one handed to a function value after the send is.
//
// Not reported, because the pass cannot be sure: requests on which headers
// are set whose names are not constants and come from anything else (for
// k, v := range h { req.Header.Set(k, v) } over a parameter h of an
// exported function whose callers are not seen, or a map handed to an
// interface method), or that are passed to a function value or an
// interface method other than one returning the response (a signer may set
// the key) before they are sent (a call after every send, with no loop or
// goto that leads back to one, tells of a request already sent), or that
// are stored, returned or sent on a channel; resty
// requests from a client that sets headers itself; loops whose request
// depends on the loop counter (urls[i]: failover to another target, not a
// retry of the same request); closures started by go or defer; sethvargo
// go-retry operations that never mark an error retryable and k8s
// RetryOnConflict. A key generated inside a loop but outside the retries
// of the request (one key per logical operation) is fine.
//
// Fixes:
//   - a request retried by retry sites: generate a key once, before the
//     outermost of them (idempotencyKey := rand.Text()), and set the header
//     from it just before the request is sent;
//   - a request retried by its client: set the header from a key generated
//     just before the send (the client resends the same request); for resty,
//     SetHeader is added to the R() chain;
//   - http.Post in a retry loop, in the form resp, err := http.Post(url,
//     contentType, body) with a side-effect-free content type: rewritten to
//     the request http.Post builds, plus the header (http.PostForm and the
//     retryablehttp functions get no fix);
//   - a key generated per attempt: its generation (the header's value, or
//     the statement defining the key's variable) moves before the outermost
//     retry site, when its operands are declared before it and not assigned
//     inside it and it calls nothing but generators and pure functions.
//
// New keys come from crypto/rand.Text where the file's Go version has it
// (Go 1.24), else from a uuid package the file already imports; otherwise
// there is no fix. The header the fixes set is the first of
// -nonidempotent.headers. Generated files get no fixes.
//
// The functions of the retry libraries (go-retryablehttp, resty) are known
// by the retryapi table alone: a fact computed from their source, which
// exists only when the library is analyzed in the same run, is not used,
// so the findings do not depend on which packages are analyzed together.
//
// Facts: the pass exports a KeyFact for functions that set an
// idempotency-key header on a request or header-map parameter (and whether
// they generate the key themselves), that set headers they cannot name on
// one, that resend a request parameter (inside a retry site, or through a
// retrying client), that return a freshly generated value, that build and
// return a request (or a request holder) with the method of a parameter,
// that build and send a request with the method of a parameter (or of a
// string field of one), retrying it or not,
// that are methods of a request holder (or description) sending its
// request through a retrying client or setting headers on it, that
// convert a request description (its method field), or that return a new resty
// request (and whether its client retries). It is the pass's own fact
// type rather than the shared analysis's: the facts depend on this pass's
// header list, and retrysite stays about retry sites. Because retrysite
// already declares facts, drivers load every dependency from source
// anyway; the extra cost is running this pass on the dependencies, which
// it skips for the standard library.
//
// Limitations: a request built in one function and retried by a site in
// another package (other than through a retry helper's operation or a
// send wrapper's fact) is not followed, nor a per-attempt key generated by
// a caller and passed down; keys carried in the body (Square's
// idempotency_key, AWS ClientToken) are not seen; resty v3 and
// failsafe-go's HTTP wrappers are not recognised; a POST used as a read
// (a search or GraphQL query) is reported like any other; a request
// wrapper that applies the caller's options to the request
// (newRequest(ctx, method, url, opts...)) is judged by every option the
// package makes of that type, not by those the caller passes.
//
// Flags:
//
//	-nonidempotent.headers  comma-separated names of the headers that carry
//	                        an idempotency key, matched case-insensitively;
//	                        the first is the one fixes set (default
//	                        Idempotency-Key,X-Idempotency-Key,PayPal-Request-Id,
//	                        Cko-Idempotency-Key,X-GCS-Idempotence-Key,
//	                        X-Qonto-Idempotency-Key,Repeatability-Request-ID)
package nonidempotent
