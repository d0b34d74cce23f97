import example.aggregation.client.ApiClient;
import example.aggregation.client.api.InstitutionsApi;
import example.aggregation.client.model.Institution;

public class ListInstitutions {
  public static void main(String[] args) throws Exception {
    ApiClient client = new ApiClient();
    client.setBasePath(System.getenv("AGGREGATION_BASE_URL"));
    // HTTP Basic: the access token as the username, an empty password.
    client.setUsername(System.getenv("AGGREGATION_TOKEN"));
    client.setPassword("");
    client.addDefaultHeader("Service-Version", "2020-10-12");
    for (Institution institution : new InstitutionsApi(client).listInstitutions(null)) {
      System.out.println(institution.getId() + " " + institution.getName() + " " + institution.getProducts());
    }
  }
}
