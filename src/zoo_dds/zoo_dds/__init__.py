"""zoo_dds: a running scenario's topics on Cyclone DDS under ROS 2's names, types, CDR and QoS."""
