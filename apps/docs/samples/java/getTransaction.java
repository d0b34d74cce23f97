import example.aggregation.client.ApiClient;
import example.aggregation.client.api.TransactionsApi;
import example.aggregation.client.model.Transaction;

public class GetTransaction {
  public static void main(String[] args) throws Exception {
    ApiClient client = new ApiClient();
    client.setBasePath(System.getenv("AGGREGATION_BASE_URL"));
    // HTTP Basic: the access token as the username, an empty password.
    client.setUsername(System.getenv("AGGREGATION_TOKEN"));
    client.setPassword("");
    client.addDefaultHeader("Service-Version", "2020-10-12");
    Transaction transaction = new TransactionsApi(client).getTransaction(System.getenv("ACCOUNT_ID"), System.getenv("TRANSACTION_ID"), null);
    System.out.println(transaction.getDate() + " " + transaction.getAmount() + " " + transaction.getStatus() + " " + transaction.getDescription());
  }
}
