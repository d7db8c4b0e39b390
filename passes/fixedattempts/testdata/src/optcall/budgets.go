package optcall

import "github.com/retrylint/retrylint/budget"

var restockBudget = budget.New()
