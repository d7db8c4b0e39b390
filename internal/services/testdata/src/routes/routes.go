// Package routes registers HTTP handlers on every router the audit reads.
package routes

import (
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/go-chi/chi/v5"
	"github.com/gorilla/mux"
)

type S struct{}

func (s *S) notify(w http.ResponseWriter, r *http.Request) {}
func (s *S) get(w http.ResponseWriter, r *http.Request)    {}
func (s *S) gin(c *gin.Context)                            {}

type handler struct{}

func (handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {}

func auth(h http.Handler) http.Handler { return h }

func ServeMux(s *S) { // want ServeMux:`serves`
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/notify", s.notify)                                     // want `serves POST /v1/notify by routes.\(\*S\).notify`
	mux.Handle("GET /kv/{key}", http.HandlerFunc(s.get))                            // want `serves GET /kv/{key} by routes.\(\*S\).get`
	mux.Handle("/static/", auth(http.HandlerFunc(s.get)))                           // want `serves /static/ by routes.\(\*S\).get \(through routes.auth\)`
	mux.Handle("/h", handler{})                                                     // want `serves /h by routes.handler.ServeHTTP`
	mux.Handle("/files/", http.FileServer(nil))                                     // want `serves /files/ by http.FileServer \(the standard library.s\)`
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {}) // want `serves GET /healthz by routes.ServeMux \(func literal\)`
	http.HandleFunc("/default", s.notify)                                           // want `serves /default by routes.\(\*S\).notify`
	api := http.NewServeMux()
	mux.Handle("/api/", api) // a mux: its own routes count
	var pattern string
	mux.HandleFunc(pattern, s.notify) // not a constant: no route
}

func Chi(s *S) { // want Chi:`serves`
	r := chi.NewRouter()
	r.Get("/kv/{key}", s.get) // want `serves GET /kv/{key} by`
	r.Route("/v1", func(r chi.Router) {
		r.Post("/notify", s.notify)                              // want `serves POST /v1/notify by routes.\(\*S\).notify`
		r.With(nil).Method("PUT", "/x", http.HandlerFunc(s.get)) // want `serves PUT /v1/x by routes.\(\*S\).get`
	})
}

func Gorilla(s *S) { // want Gorilla:`serves`
	r := mux.NewRouter()
	r.HandleFunc("/v1/notify", s.notify).Methods("POST") // want `serves POST /v1/notify by`
	api := r.PathPrefix("/api").Subrouter()
	api.HandleFunc("/items/{id}", s.get)                // want `serves /api/items/{id} by`
	r.Path("/v2/get").Methods("GET").HandlerFunc(s.get) // want `serves GET /v2/get by`
}

func Gin(s *S) { // want Gin:`serves`
	e := gin.Default()
	e.POST("/v1/notify", nil, s.gin) // want `serves POST /v1/notify by routes.\(\*S\).gin`
	g := e.Group("/v2")
	g.GET("/kv/:key", s.gin) // want `serves GET /v2/kv/:key by`
}

// Traced wraps a ServeMux, as tracing middlewares do: its Handle is a
// registration function, and its callers' patterns are the routes.
type Traced struct{ mux *http.ServeMux }

func (t *Traced) Handle(pattern string, h http.Handler) { // want Handle:`registers\(http net/http \$0 \$1\)`
	traced := auth(h)
	t.mux.Handle(pattern, traced)
}

func Wrapped(s *S) { // want Wrapped:`serves`
	t := &Traced{mux: http.NewServeMux()}
	t.Handle("/hotels", http.HandlerFunc(s.get)) // want `serves /hotels by routes.\(\*S\).get`
}

// BaseURL is a deployment's base path, from configuration.
var BaseURL string

func Based(s *S) { // want Based:`serves`
	r := mux.NewRouter()
	r.HandleFunc(BaseURL+"/cart", s.get).Methods(http.MethodGet, http.MethodHead) // want `serves GET /cart by routes.\(\*S\).get` `serves HEAD /cart by`
	r.HandleFunc(BaseURL, s.get)                                                   // no path: no route
}
