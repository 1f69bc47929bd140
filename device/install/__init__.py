"""This copy of the companion as it was installed: its version, and how it takes an extra."""
