package perdep

import (
	"fmt"
	"net/http"
	"time"
)

// OMS is a client of the order-management service, whose base URL is
// configured per instance.
type OMS struct {
	OMSBaseURL string
	hc         *http.Client
}

// The registry of budgets by base URL is named as Go names initialisms:
// omsBaseURLBudgets, not oMSBaseURLBudgets.
func (o *OMS) Order(id string) error {
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		resp, err := o.hc.Get(o.OMSBaseURL + "/orders/" + id)
		if err != nil {
			time.Sleep(time.Millisecond)
			continue
		}
		resp.Body.Close()
		if resp.StatusCode < 500 {
			return nil
		}
		time.Sleep(time.Millisecond)
	}
	return fmt.Errorf("order %s: gave up", id)
}
