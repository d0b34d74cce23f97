import example.aggregation.client.ApiClient;
import example.aggregation.client.api.EntrypointApi;
import example.aggregation.client.model.Entrypoint;

public class GetEntrypoint {
  public static void main(String[] args) throws Exception {
    ApiClient client = new ApiClient();
    client.setBasePath(System.getenv("AGGREGATION_BASE_URL"));
    // HTTP Basic: the access token as the username, an empty password.
    client.setUsername(System.getenv("AGGREGATION_TOKEN"));
    client.setPassword("");
    client.addDefaultHeader("Service-Version", "2020-10-12");
    Entrypoint entrypoint = new EntrypointApi(client).getEntrypoint(null);
    System.out.println(entrypoint.getLinks().getAccounts() + " " + entrypoint.getLinks().getInstitutions());
  }
}
