class Helper {
    public static void main(String[] args) {
        System.out.println("{\"response\":\"PASS\"}");
    }
}
