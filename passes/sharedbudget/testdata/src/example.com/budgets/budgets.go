// Package budgets declares a budget that other packages use.
package budgets

import "github.com/retrylint/retrylint/budget"

// Default is one budget for everything.
var Default = budget.New()
