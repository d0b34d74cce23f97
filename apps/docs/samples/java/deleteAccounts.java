import example.aggregation.client.ApiClient;
import example.aggregation.client.api.AccountsApi;

public class DeleteAccounts {
  public static void main(String[] args) throws Exception {
    ApiClient client = new ApiClient();
    client.setBasePath(System.getenv("AGGREGATION_BASE_URL"));
    // HTTP Basic: the access token as the username, an empty password.
    client.setUsername(System.getenv("AGGREGATION_TOKEN"));
    client.setPassword("");
    client.addDefaultHeader("Service-Version", "2020-10-12");
    // Removes access to every account of the enrollment: the token stops working.
    new AccountsApi(client).deleteAccounts(null);
    System.out.println("enrollment removed");
  }
}
