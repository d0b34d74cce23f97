import example.aggregation.client.ApiClient;
import example.aggregation.client.api.TransactionsApi;
import example.aggregation.client.model.Transaction;
import java.util.List;

public class ListTransactions {
  public static void main(String[] args) throws Exception {
    ApiClient client = new ApiClient();
    client.setBasePath(System.getenv("AGGREGATION_BASE_URL"));
    // HTTP Basic: the access token as the username, an empty password.
    client.setUsername(System.getenv("AGGREGATION_TOKEN"));
    client.setPassword("");
    client.addDefaultHeader("Service-Version", "2020-10-12");
    TransactionsApi transactions = new TransactionsApi(client);
    String accountId = System.getenv("ACCOUNT_ID");
    // Newest first. The next page starts after the last transaction received: pass its id as from_id.
    List<Transaction> page = transactions.listTransactions(accountId, 25, null, null, null, null);
    for (Transaction transaction : page) {
      System.out.println(transaction.getDate() + " " + transaction.getAmount() + " " + transaction.getDescription());
    }
    if (!page.isEmpty()) {
      String fromId = page.get(page.size() - 1).getId();
      System.out.println(transactions.listTransactions(accountId, 25, fromId, null, null, null).size() + " older transactions");
    }
  }
}
