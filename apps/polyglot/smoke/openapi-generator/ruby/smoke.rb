# Smoke program of openapi-generator's ruby client: the shared scenario (apps/polyglot/src/smoke.ts) against a
# running sandbox server (AGGREGATION_BASE_URL, AGGREGATION_TOKEN), one line per step, exiting 1 when a step failed.
# Run with the generated lib/ on the load path: ruby -I clients/openapi-generator/ruby/lib smoke.rb
require 'securerandom'
require 'uri'
require 'aggregation_openapi_client'

PAGE_SIZE = 25
MONEY = /\A-?\d+\.\d{2}\z/
$failed = false

def step(name)
  puts "step #{name}: ok #{yield}"
rescue StandardError => e
  $failed = true
  puts "step #{name}: fail #{e.class}: #{e.message}".gsub("\n", ' ')
end

def check(condition, message)
  raise message unless condition
end

base = URI(ENV.fetch('AGGREGATION_BASE_URL'))
AggregationOpenapiClient.configure do |config|
  config.scheme = base.scheme
  config.host = "#{base.host}:#{base.port}"
  config.base_path = base.path
  # HTTP Basic with the token as the username and an empty password.
  config.username = ENV.fetch('AGGREGATION_TOKEN')
  config.password = ''
end
accounts = AggregationOpenapiClient::AccountsApi.new
transactions = AggregationOpenapiClient::TransactionsApi.new
payments = AggregationOpenapiClient::PaymentsApi.new
checking = nil

step('accounts') do
  list = accounts.list_accounts
  checking = list.find { |account| account.links.payments }.id
  "#{list.length} accounts"
end

step('transactions') do
  seen = []
  pages = 0
  from_id = nil
  loop do
    options = { count: PAGE_SIZE }
    options[:from_id] = from_id if from_id
    page = transactions.list_transactions(checking, options)
    pages += 1
    seen.concat(page)
    break if page.length < PAGE_SIZE || pages > 1000

    from_id = page.last.id
  end
  everything = transactions.list_transactions(checking)
  check(everything.map(&:id) == seen.map(&:id), 'the pages differ from the full list')
  "#{seen.length} transactions in #{pages} pages of #{PAGE_SIZE}"
end

step('balances') do
  balances = accounts.get_account_balances(checking)
  check(MONEY.match?(balances.ledger) && MONEY.match?(balances.available), "balances #{balances.inspect}")
  "ledger #{balances.ledger}, available #{balances.available}"
end

payee = AggregationOpenapiClient::PaymentPayeeInput.new(scheme: AggregationOpenapiClient::PaymentSchemeName::ZELLE, address: 'jane.doe@example.com', name: 'Jane Doe', type: AggregationOpenapiClient::PayeeType::PERSON)
pay = lambda do |memo|
  request = AggregationOpenapiClient::CreatePaymentRequest.new(amount: '1.00', memo: memo, payee: payee)
  payments.create_payment_with_http_info(checking, request, idempotency_key: SecureRandom.uuid)
end

step('payment_mfa') do
  answer, status, = pay.call('mfa')
  check(status == 200 && answer.is_a?(AggregationOpenapiClient::MfaChallenge) && !answer.connect_token.empty?, "#{status}: #{answer.inspect}")
  '200 challenge with a connect_token'
end

step('payment') do
  answer, status, = pay.call('Lunch')
  check(status == 202 && answer.is_a?(AggregationOpenapiClient::Payment), "#{status}: #{answer.inspect}")
  check(answer.id.start_with?('pay_') && answer.amount == '1.00', "payment #{answer.inspect}")
  "202 Payment #{answer.id}"
end

create_payee = lambda do |name, address|
  request = AggregationOpenapiClient::CreatePayeeRequest.new(scheme: AggregationOpenapiClient::PaymentSchemeName::ZELLE, address: address, name: name, type: AggregationOpenapiClient::PayeeType::PERSON)
  payments.create_payee(checking, request)
end

step('payee_mfa') do
  answer = create_payee.call('mfa', 'mfa@example.com')
  check(answer.is_a?(AggregationOpenapiClient::MfaChallenge) && !answer.connect_token.empty?, "no MFA challenge: #{answer.inspect}")
  'challenge with a connect_token'
end

step('payee') do
  answer = create_payee.call('Sam Lee', 'sam.lee@example.com')
  check(answer.is_a?(AggregationOpenapiClient::Payee) && answer.name == 'Sam Lee', "no Payee: #{answer.inspect}")
  "Payee #{answer.name}"
end

step('error') do
  begin
    accounts.get_account('acc_does_not_exist')
    raise 'an unknown account was found'
  rescue AggregationOpenapiClient::ApiError => e
    body = AggregationOpenapiClient::Error.build_from_hash(JSON.parse(e.response_body, symbolize_names: true))
    check(e.code == 404 && !body.error.code.empty?, "status #{e.code}, body #{e.response_body}")
    "404 #{body.error.code}"
  end
end

exit(1) if $failed
