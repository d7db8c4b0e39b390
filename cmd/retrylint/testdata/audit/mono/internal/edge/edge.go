// Package edge is the HTTP edge: user requests enter here.
package edge

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	ordersv1 "example.com/mono/gen/orders/v1"
	paymentsv1 "example.com/mono/gen/payments/v1"
	"github.com/retrylint/retrylint/budget"
)

// Server serves the edge's routes.
type Server struct {
	orders    ordersv1.OrdersClient
	payments  paymentsv1.PaymentsClient
	notifyURL string
	ordersURL string
}

var ordersBudget = budget.New()

// New returns the edge's server.
func New(orders ordersv1.OrdersClient, payments paymentsv1.PaymentsClient, notifyURL, ordersURL string) *Server {
	return &Server{orders: orders, payments: payments, notifyURL: notifyURL, ordersURL: ordersURL}
}

// Routes registers the edge's handlers.
func (s *Server) Routes(mux *http.ServeMux) {
	mux.HandleFunc("POST /checkout", s.Checkout)
	mux.HandleFunc("POST /checkout/budgeted", s.CheckoutBudgeted)
	mux.HandleFunc("POST /pay", s.Pay)
	mux.HandleFunc("GET /readyz", s.Ready)
}

// Checkout places the order, retrying orders 3 times; each attempt starts
// a goroutine that tracks it, which it does not wait for.
func (s *Server) Checkout(w http.ResponseWriter, r *http.Request) {
	req := &ordersv1.PlaceRequest{OrderId: r.FormValue("id"), Account: r.FormValue("account")}
	for i := 0; i < 3; i++ {
		go s.track(req.GetOrderId())
		if _, err := s.orders.Place(r.Context(), req); err == nil {
			w.WriteHeader(http.StatusCreated)
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
	w.WriteHeader(http.StatusBadGateway)
}

// CheckoutBudgeted retries orders within a 10% budget.
func (s *Server) CheckoutBudgeted(w http.ResponseWriter, r *http.Request) {
	req := &ordersv1.PlaceRequest{OrderId: r.FormValue("id"), Account: r.FormValue("account")}
	ordersBudget.OnRequest()
	for i := 0; i < 3; i++ {
		if _, err := s.orders.PlaceBudgeted(r.Context(), req); err == nil {
			w.WriteHeader(http.StatusCreated)
			return
		}
		if !ordersBudget.TryRetry() {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	w.WriteHeader(http.StatusBadGateway)
}

// Pay charges the account through the payments service, which another
// team runs: the call leaves this repository.
func (s *Server) Pay(w http.ResponseWriter, r *http.Request) {
	var err error
	for i := 0; i < 2; i++ {
		if _, err = s.payments.Charge(r.Context(), &paymentsv1.ChargeRequest{Account: r.FormValue("account")}); err == nil {
			w.WriteHeader(http.StatusOK)
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
	http.Error(w, err.Error(), http.StatusBadGateway)
}

// Ready asks the health of what is behind the orders URL: GET /healthz,
// which two services serve.
func (s *Server) Ready(w http.ResponseWriter, r *http.Request) {
	resp, err := http.Get(s.ordersURL + "/healthz")
	if err != nil {
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	resp.Body.Close()
	w.WriteHeader(resp.StatusCode)
}

// track tells notify about an order, retrying 3 times with an
// idempotency key.
func (s *Server) track(id string) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for i := 0; i < 3; i++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.notifyURL+"/v1/notify", strings.NewReader(id))
		if err != nil {
			return
		}
		req.Header.Set("Idempotency-Key", "track-"+id)
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
			return
		}
		fmt.Println("track:", err)
		time.Sleep(100 * time.Millisecond)
	}
}
